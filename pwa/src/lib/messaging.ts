import { chatEvents, MESSAGE_RATE_PER_S, messageTextSchema, type MessageAck } from '@parley/contract/chat';
import { MESSAGING_REQUEST_TIMEOUT_MS } from '@parley/contract/constants';
import type { ConversationMessage, MessageStatusChange } from './conversation';
import { emitSocketWithAck, getSocketStatus, offlineNotice } from '../realtime/socket';

type OutgoingStatus = ConversationMessage['status'];
export type OutgoingMessage = { id: string; text: string; sentAt: number; from: 'me'; status: 'sending' };
export type MessageNotice = { title: string; description: string };

/** Where a room's conversation keeps its own messages (text chat and video chat each have one). */
export type MessageTrack = {
  inRoom(): boolean;
  /** The conversation's messages, oldest first. */
  messages(): readonly ConversationMessage[];
  add(message: OutgoingMessage): void;
  /**
   * `unsent: 'connection'` with `failed`: our connection dropped before the server answered (the
   * message may or may not have reached the partner), or the partner's had (refused with
   * `partner_away`). The conversation sends it again under the same id once both are back; the
   * partner's page ignores an id it already shows. Given only while in the room (see mark()).
   */
  setStatus(change: MessageStatusChange): void;
  /**
   * True while the partner cannot be reached because either connection is down: a new message
   * then waits (failed, `unsent`) for the resend instead of overtaking the ones already waiting.
   */
  waiting?(): boolean;
};

/** Why this text cannot be sent as a message (empty, over the size limit), or null when it can. */
export function messageProblem(text: string): string | null {
  const valid = messageTextSchema.safeParse(text);
  return valid.success ? null : (valid.error.issues[0]?.message ?? 'This message cannot be sent.');
}

/**
 * A backlog larger than the server's message allowance goes in rounds, RESEND_ROUND messages a
 * second (MESSAGE_RATE_PER_S), rather than all at once and mostly refused ("Slow down", Retry).
 */
const RESEND_ROUND = MESSAGE_RATE_PER_S;
const RESEND_ROUND_MS = 1000;
let resendRound: ReturnType<typeof setTimeout> | undefined;

/** A message's new status; `unsent` only while in the room: once it is over nothing is sent again. */
function mark(track: MessageTrack, id: string, status: OutgoingStatus, sentAt?: number, unsent?: 'connection') {
  track.setStatus({ id, status, ...(sentAt ? { sentAt } : {}), ...(unsent && track.inRoom() ? { unsent } : {}) });
}

let messageSeq = 0;
function newMessageId(): string {
  return typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `${Date.now().toString(36)}-${++messageSeq}`;
}

/**
 * Sends one message to the room's partner; its status goes sending → sent → delivered (or
 * failed). Resolves to whether the server accepted it.
 */
export async function sendRoomMessage(text: string, notify: (n: MessageNotice) => void, track: MessageTrack): Promise<boolean> {
  const problem = messageProblem(text);
  if (problem) {
    notify({ title: 'Message not sent', description: problem });
    return false;
  }
  if (!track.inRoom()) return false;
  // Messages still waiting from a drop go first, so that nothing is overtaken (unless they are
  // already going in rounds: the next round takes them).
  if (!track.waiting?.() && !resendRound) resendWaiting(track, { unconfirmed: false }, notify);
  // Some still wait for a later round of the resend: this one goes behind them.
  const behind = track.messages().some((m) => m.from === 'me' && m.unsent === 'connection');
  const id = newMessageId();
  track.add({ id, text, sentAt: Date.now(), from: 'me', status: 'sending' });
  if (track.waiting?.() || behind) {
    mark(track, id, 'failed', undefined, 'connection');
    return true;
  }
  return deliverRoomMessage({ id, text }, notify, track);
}

/** The attempt under way per message id: the answer of an older attempt of a resent message is ignored. */
const attempts = new Map<string, number>();
let attemptSeq = 0;

/**
 * Sends a message that is already in the conversation (first send, Retry, or the resend after a
 * resumed chat) under its own id; its status goes sending → sent → delivered, or failed.
 */
export async function deliverRoomMessage(
  message: { id: string; text: string },
  notify: (n: MessageNotice) => void,
  track: MessageTrack,
  opts: { resend?: boolean } = {},
): Promise<boolean> {
  const { id, text } = message;
  const attempt = ++attemptSeq;
  attempts.set(id, attempt);
  mark(track, id, 'sending');
  const settle = (status: OutgoingStatus, sentAt?: number, unsent?: 'connection') => {
    if (attempts.get(id) !== attempt) return false;
    attempts.delete(id);
    mark(track, id, status, sentAt, unsent);
    return true;
  };
  try {
    const ack = await emitSocketWithAck<MessageAck>(chatEvents.message, { id, text }, MESSAGING_REQUEST_TIMEOUT_MS);
    if (ack.ok) return settle(ack.delivered ? 'delivered' : 'sent', ack.sentAt);
    // The stranger's connection dropped and the page says so: it goes when they are back.
    if (ack.code === 'partner_away') settle('failed', undefined, 'connection');
    // A resend over the allowance (the user had been sending too): it waits for the next round.
    else if (opts.resend && ack.code === 'rate_limited') {
      if (settle('failed', undefined, 'connection')) nextResendRound(track, notify);
    } else if (settle('failed'))
      notify({ title: ack.code === 'rate_limited' ? 'Slow down' : 'Message not sent', description: ack.message });
    return false;
  } catch {
    // Offline, or the connection dropped on the way: the chat's own notice says so, and the
    // message goes again when the chat resumes.
    if (getSocketStatus() !== 'connected') settle('failed', undefined, 'connection');
    else if (settle('failed'))
      notify({ title: 'Message not sent', description: 'Request timed out. Check your connection and try again.' });
    return false;
  }
}

/**
 * Messages cut off by a dropped connection (ours, or the stranger's while they were away) go
 * again once both are back, in order and under their own ids: one that had reached the stranger
 * after all is only acknowledged again, not shown twice. `unconfirmed` adds the messages the
 * server took but the stranger's page never acknowledged (it was passed to a connection that had
 * died before anyone noticed).
 */
export function resendWaiting(track: MessageTrack, opts: { unconfirmed: boolean }, notify: (n: MessageNotice) => void): void {
  let round = 0;
  for (const m of track.messages()) {
    if (m.from !== 'me' || !(m.unsent === 'connection' || (opts.unconfirmed && m.status === 'sent'))) continue;
    if (round++ < RESEND_ROUND) {
      void deliverRoomMessage(m, notify, track, { resend: true });
      continue;
    }
    // Beyond the round: waits for the next one (an unacknowledged message too, so it is not forgotten).
    if (m.status === 'sent') mark(track, m.id, 'failed', undefined, 'connection');
    nextResendRound(track, notify);
  }
}

function nextResendRound(track: MessageTrack, notify: (n: MessageNotice) => void) {
  if (resendRound) return;
  resendRound = setTimeout(() => {
    resendRound = undefined;
    // Gone away again meanwhile: the resume or the partner's return sends them.
    if (track.inRoom() && !track.waiting?.()) resendWaiting(track, { unconfirmed: false }, notify);
  }, RESEND_ROUND_MS);
}

/** Retry: sends a message of ours that was not sent again, under the same id (never shown twice to the stranger). */
export async function retryRoomMessage(id: string, notify: (n: MessageNotice) => void, track: MessageTrack): Promise<boolean> {
  const m = track.messages().find((x) => x.id === id && x.from === 'me');
  if (!m || m.status !== 'failed' || !track.inRoom()) return false;
  if (getSocketStatus() !== 'connected') {
    notify(offlineNotice());
    return false;
  }
  return deliverRoomMessage(m, notify, track);
}
