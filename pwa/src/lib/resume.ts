import { chatEvents, resumeAnswerSchema } from '@parley/contract/chat';
import { emitSocket, emitSocketWithAck, getSocketStatus, subscribeSocketStatus } from '../realtime/socket';

/**
 * Taking back a chat the server held while our connection was down (`chat:resume`, see the
 * contract). Shared by the text and the video chat, which each keep their own state.
 */

/** How long a resume waits for the server's answer before the chat counts as ended. */
export const RESUME_ANSWER_TIMEOUT_MS = 5_000;

export type ResumeOutcome =
  /** The chat goes on; the partner may be away too. `callAttempt`: a video call placed again meanwhile. */
  | { kind: 'resumed'; partnerAway: boolean; callAttempt?: number }
  /** The stranger left while we were away. */
  | { kind: 'partnerLeft' }
  /** Nothing to take back: the chat has ended. */
  | { kind: 'ended' }
  /** The connection dropped again before the answer came: ask again on the next one. */
  | { kind: 'dropped' };

/**
 * Asks the server for the chat of `roomId` it held for this page. `stillWaiting` tells whether the
 * page still waits for this answer (the user may have started something else meanwhile).
 */
export async function askToResume(
  roomId: string,
  stillWaiting: () => boolean,
  timeoutMs = RESUME_ANSWER_TIMEOUT_MS,
): Promise<ResumeOutcome> {
  let answer: unknown;
  try {
    answer = await emitSocketWithAck<unknown>(chatEvents.resume, { roomId }, timeoutMs);
  } catch {
    if (getSocketStatus() !== 'connected') return { kind: 'dropped' };
    // No answer in time: give the chat up on the server as well, should it have resumed it after
    // all, so that the partner is not left talking to a page that shows no chat (unless the user
    // has gone on to something else, which that stop would end).
    if (stillWaiting()) emitSocket(chatEvents.stop);
    return { kind: 'ended' };
  }
  const a = resumeAnswerSchema.safeParse(answer);
  if (a.success && a.data.ok) return { kind: 'resumed', partnerAway: a.data.partnerAway, callAttempt: a.data.callAttempt };
  if (a.success && 'partnerLeft' in a.data && a.data.partnerLeft) return { kind: 'partnerLeft' };
  return { kind: 'ended' };
}

/**
 * Takes back the room the server held for this page, once reconnected: `resumed`, `partnerLeft`
 * or `ended` runs with the answer, unless the connection dropped again (the next one asks again)
 * or the page stopped waiting for it meanwhile (`stillWaiting`).
 */
export function takeBackHeldRoom(
  roomId: string,
  page: { stillWaiting(): boolean; resumed(partnerAway: boolean, callAttempt?: number): void; partnerLeft(): void; ended(): void },
): void {
  void askToResume(roomId, () => page.stillWaiting()).then((outcome) => {
    if (outcome.kind === 'dropped' || !page.stillWaiting()) return;
    if (outcome.kind === 'resumed') page.resumed(outcome.partnerAway, outcome.callAttempt);
    else if (outcome.kind === 'partnerLeft') page.partnerLeft();
    else page.ended();
  });
}

/**
 * Stops the search or chat under way on the server. While the connection is down the stop cannot
 * go: once back, what the server holds for this page ends instead, the chat of `roomId` while it
 * is held (`reconnecting`), or, with no room, one matched to the search meanwhile.
 */
export function stopOnServer(current: { roomId: string | null; reconnecting: boolean }): void {
  if (emitSocket(chatEvents.stop)) return;
  if (current.roomId === null) endHeldChatWhenBack(null);
  else if (current.reconnecting) endHeldChatWhenBack(current.roomId);
}

/**
 * A chat left while the connection was down is still held by the server for this page: once
 * connected again, take it back and stop it, so that the partner learns at once that it ended.
 * `roomId` null: a search stopped while the connection was down, whose match the page may have
 * missed; the stop alone ends a room held for this page. Module-level: the page that left has
 * detached from the socket by then. One at a time: a page holds one chat, and a newer abandoned
 * chat replaces the older.
 */
let abandoning: (() => void) | null = null;
export function endHeldChatWhenBack(roomId: string | null) {
  abandoning?.();
  const off = subscribeSocketStatus(() => {
    const status = getSocketStatus();
    if (status === 'closed' || status === 'ended') return stop(); // signed out: the server ends it
    if (status !== 'connected') return;
    stop();
    // The stop follows the resume at once (events keep their order): nothing the user starts
    // meanwhile can come between them and be ended by it. The answer changes nothing.
    if (roomId !== null) emitSocketWithAck<unknown>(chatEvents.resume, { roomId }, RESUME_ANSWER_TIMEOUT_MS).catch(() => undefined);
    emitSocket(chatEvents.stop);
  });
  const stop = () => {
    off();
    if (abandoning === stop) abandoning = null;
  };
  abandoning = stop;
}
