import { chatEvents, MESSAGE_RATE_PER_S, messageAckSchema, messageTextSchema } from '@parley/contract/chat';
import { MESSAGING_REQUEST_TIMEOUT_MS } from '@parley/contract/constants';
import type { ConversationMessage, MessageStatusChange } from '../lib/conversation';
import { emitSocketWithAck, getSocketStatus, offlineNotice } from './socket';

type OutgoingStatus = ConversationMessage['status'];
/** The server's word for a message of ours it relayed: its id, time and receipt. */
type Relayed = { sentAt: number; messageId: string; receipt?: string | undefined };
export type OutgoingMessage = { id: string; text: string; sentAt: number; from: 'me'; status: 'sending' };
export type MessageNotice = { title: string; description: string };
type Notify = (n: MessageNotice) => void;

/** Where a room keeps its conversation's messages (each room kind's slice has one). */
export type MessageTrack = {
  inRoom(): boolean;
  /** The conversation's messages, oldest first. */
  messages(): readonly ConversationMessage[];
  add(message: OutgoingMessage): void;
  /**
   * `unsent: 'connection'` with `failed`: our connection dropped before the server answered (the
   * message may or may not have reached the partner), or the partner's had (refused with
   * `partner_away`). The outbox sends it again under the same id once both are back; the
   * partner's page ignores an id it already shows. Given only while in the room (see mark()).
   */
  setStatus(change: MessageStatusChange): void;
  /**
   * True while the partner cannot be reached because either connection is down: a new message
   * then waits (failed, `unsent`) for the resend instead of overtaking the ones already waiting.
   */
  waiting(): boolean;
};

/** Why this text cannot be sent as a message (empty, over the size limit), or null when it can. */
export function messageProblem(text: string): string | null {
  const valid = messageTextSchema.safeParse(text);
  return valid.success ? null : (valid.error.issues[0]?.message ?? 'This message cannot be sent.');
}

/**
 * How a backlog goes out: `round` messages every `roundMs`. Larger than the server's message
 * allowance (MESSAGE_RATE_PER_S) it would be mostly refused ("Slow down", Retry).
 */
export type ResendPolicy = { round: number; roundMs: number };
export const RESEND_POLICY: ResendPolicy = { round: MESSAGE_RATE_PER_S, roundMs: 1000 };

export type Outbox = {
  /**
   * Sends one message to the room's partner; its status goes sending → sent → delivered (or
   * failed). Resolves to whether the server accepted it.
   */
  send(text: string, notify: Notify): Promise<boolean>;
  /** Retry: sends a message of ours that was not sent again, under the same id (never shown twice to the stranger). */
  retry(id: string, notify: Notify): Promise<boolean>;
  /**
   * Messages cut off by a dropped connection (ours, or the stranger's while they were away) go
   * again once both are back, in order and under their own ids: one that had reached the stranger
   * after all is only acknowledged again, not shown twice. `unconfirmed` adds the messages the
   * server took but the stranger's page never acknowledged (it was passed to a connection that had
   * died before anyone noticed).
   */
  resendWaiting(opts: { unconfirmed: boolean }, notify: Notify): void;
  /** Forgets the next resend round; answers still on their way change nothing any more. */
  dispose(): void;
};

/** The messages one room connection sends: their attempts, ids and resend rounds. */
export function createOutbox(track: MessageTrack, policy: ResendPolicy = RESEND_POLICY): Outbox {
  let resendRound: ReturnType<typeof setTimeout> | undefined;
  let disposed = false;
  // The attempt under way per message id: the answer of an older attempt of a resent message is ignored.
  const attempts = new Map<string, number>();
  let attemptSeq = 0;
  let messageSeq = 0;

  const newMessageId = () =>
    typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `${Date.now().toString(36)}-${++messageSeq}`;

  /** A message's new status; `unsent` only while in the room: once it is over nothing is sent again. */
  function mark(id: string, status: OutgoingStatus, relayed?: Relayed, unsent?: 'connection') {
    track.setStatus({
      id,
      status,
      ...(relayed ? { sentAt: relayed.sentAt, messageId: relayed.messageId } : {}),
      ...(relayed?.receipt ? { receipt: relayed.receipt } : {}),
      ...(unsent && track.inRoom() ? { unsent } : {}),
    });
  }

  async function deliver(message: { id: string; text: string }, notify: Notify, opts: { resend?: boolean } = {}): Promise<boolean> {
    const { id, text } = message;
    const attempt = ++attemptSeq;
    attempts.set(id, attempt);
    mark(id, 'sending');
    const settle = (status: OutgoingStatus, relayed?: Relayed, unsent?: 'connection') => {
      if (disposed || attempts.get(id) !== attempt) return false;
      attempts.delete(id);
      mark(id, status, relayed, unsent);
      return true;
    };
    try {
      const answer = await emitSocketWithAck<unknown>(chatEvents.message, { id, text }, MESSAGING_REQUEST_TIMEOUT_MS);
      const read = messageAckSchema.safeParse(answer);
      if (!read.success) {
        // Without the server's id and receipt the message could not be part of a report: it counts as not sent.
        if (settle('failed')) notify({ title: 'Message not sent', description: 'Reload the page to update Parley, then try again.' });
        return false;
      }
      const ack = read.data;
      // The server's id and receipt are its word for what was sent: a report of this chat shows them.
      if (ack.ok) return settle(ack.delivered ? 'delivered' : 'sent', ack);
      // The stranger's connection dropped and the page says so: it goes when they are back.
      if (ack.code === 'partner_away') settle('failed', undefined, 'connection');
      // A resend over the allowance (the user had been sending too): it waits for the next round.
      else if (opts.resend && ack.code === 'rate_limited') {
        if (settle('failed', undefined, 'connection')) nextResendRound(notify);
      } else if (settle('failed'))
        notify({ title: ack.code === 'rate_limited' ? 'Slow down' : 'Message not sent', description: ack.message });
      return false;
    } catch {
      // Offline, or the connection dropped on the way: the room's own status line says so, and
      // the message goes again when the room resumes.
      if (getSocketStatus() !== 'connected') settle('failed', undefined, 'connection');
      else if (settle('failed'))
        notify({ title: 'Message not sent', description: 'Request timed out. Check your connection and try again.' });
      return false;
    }
  }

  function resendWaiting(opts: { unconfirmed: boolean }, notify: Notify): void {
    let round = 0;
    for (const m of track.messages()) {
      if (m.from !== 'me' || !(m.unsent === 'connection' || (opts.unconfirmed && m.status === 'sent'))) continue;
      if (round++ < policy.round) {
        void deliver(m, notify, { resend: true });
        continue;
      }
      // Beyond the round: waits for the next one (an unacknowledged message too, so it is not forgotten).
      if (m.status === 'sent') mark(m.id, 'failed', undefined, 'connection');
      nextResendRound(notify);
    }
  }

  function nextResendRound(notify: Notify) {
    if (resendRound || disposed) return;
    resendRound = setTimeout(() => {
      resendRound = undefined;
      // Gone away again meanwhile: the resume or the partner's return sends them.
      if (track.inRoom() && !track.waiting()) resendWaiting({ unconfirmed: false }, notify);
    }, policy.roundMs);
  }

  return {
    async send(text, notify) {
      const problem = messageProblem(text);
      if (problem) {
        notify({ title: 'Message not sent', description: problem });
        return false;
      }
      if (!track.inRoom()) return false;
      // Messages still waiting from a drop go first, so that nothing is overtaken (unless they are
      // already going in rounds: the next round takes them).
      if (!track.waiting() && !resendRound) resendWaiting({ unconfirmed: false }, notify);
      // Some still wait for a later round of the resend: this one goes behind them.
      const behind = track.messages().some((m) => m.from === 'me' && m.unsent === 'connection');
      const id = newMessageId();
      track.add({ id, text, sentAt: Date.now(), from: 'me', status: 'sending' });
      if (track.waiting() || behind) {
        mark(id, 'failed', undefined, 'connection');
        return true;
      }
      return deliver({ id, text }, notify);
    },
    async retry(id, notify) {
      const m = track.messages().find((x) => x.id === id && x.from === 'me');
      if (!m || m.status !== 'failed' || !track.inRoom()) return false;
      if (getSocketStatus() !== 'connected') {
        notify(offlineNotice());
        return false;
      }
      return deliver(m, notify);
    },
    resendWaiting,
    dispose() {
      disposed = true;
      clearTimeout(resendRound);
      resendRound = undefined;
      attempts.clear();
    },
  };
}
