import { chatEvents, resumeAnswerSchema } from '@parley/contract/matchmaking';
import { emitSocket, emitSocketWithAck, getSocketStatus, subscribeSocketStatus } from './socket';

/**
 * Taking back a room the server held while our connection was down (`chat:resume`, see the
 * contract), and ending one that the page left meanwhile.
 */

/** How long a resume waits for the server's answer before the room counts as ended. */
export const RESUME_ANSWER_TIMEOUT_MS = 5_000;

export type ResumeOutcome =
  /** The room goes on; the partner may be away too. `callAttempt`: a video call placed again meanwhile. */
  | { kind: 'resumed'; partnerAway: boolean; callAttempt?: number }
  /** The stranger left while we were away. */
  | { kind: 'partnerLeft' }
  /** Nothing to take back: the room has ended. */
  | { kind: 'ended' }
  /** The connection dropped again before the answer came: ask again on the next one. */
  | { kind: 'dropped' };

/**
 * Asks the server for the room `roomId` it held for this page. `stillWaiting` tells whether the
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
    // No answer in time: give the room up on the server as well, should it have resumed it after
    // all, so that the partner is not left talking to a page that shows no room (unless the user
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
 * What a room connection left behind on the server. While the connection is down a stop cannot
 * go; once connected again, the room the server holds for this page is taken back and stopped,
 * so that the partner learns at once that it ended. It outlives the page that left (which has
 * detached by then) and holds one room at a time: a newer abandoned room replaces the older.
 */
export type AbandonedRooms = {
  /**
   * Stops the search or room under way on the server; while the connection is down, once back,
   * the room of `roomId` if it is held (`reconnecting`), or, with no room, one matched to the
   * search meanwhile.
   */
  stopOnServer(current: { roomId: string | null; reconnecting: boolean }): void;
  /** Ends, once connected again, the held room `roomId`, or (null) a room matched to a search stopped offline. */
  endWhenBack(roomId: string | null): void;
  dispose(): void;
};

export function createAbandonedRooms(): AbandonedRooms {
  let abandoning: (() => void) | null = null;

  function endWhenBack(roomId: string | null) {
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

  return {
    stopOnServer(current) {
      if (emitSocket(chatEvents.stop)) return;
      if (current.roomId === null) endWhenBack(null);
      else if (current.reconnecting) endWhenBack(current.roomId);
    },
    endWhenBack,
    dispose() {
      abandoning?.();
    },
  };
}
