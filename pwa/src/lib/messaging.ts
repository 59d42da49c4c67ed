import { EV, messageTextSchema, type MessageAck } from '@parley/contract/chat';
import { MESSAGING_REQUEST_TIMEOUT_MS } from '@parley/contract/constants';
import { emitSocketWithAck } from './socket';

export type OutgoingStatus = 'sending' | 'sent' | 'delivered' | 'failed';
export type OutgoingMessage = { id: string; text: string; sentAt: number; from: 'me'; status: 'sending' };
export type MessageNotice = { title: string; description: string };

/** Where a room's conversation keeps its own messages (text chat and video chat each have one). */
export type MessageTrack = {
  inRoom(): boolean;
  add(message: OutgoingMessage): void;
  setStatus(id: string, status: OutgoingStatus, sentAt?: number): void;
};

/** Why this text cannot be sent as a message (empty, over the size limit), or null when it can. */
export function messageProblem(text: string): string | null {
  const valid = messageTextSchema.safeParse(text);
  return valid.success ? null : (valid.error.issues[0]?.message ?? 'This message cannot be sent.');
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
  const id = newMessageId();
  track.add({ id, text, sentAt: Date.now(), from: 'me', status: 'sending' });
  try {
    const ack = await emitSocketWithAck<MessageAck>(EV.message, { id, text }, MESSAGING_REQUEST_TIMEOUT_MS);
    if (ack.ok) {
      track.setStatus(id, ack.delivered ? 'delivered' : 'sent', ack.sentAt);
      return true;
    }
    track.setStatus(id, 'failed');
    notify({ title: ack.code === 'rate_limited' ? 'Slow down' : 'Message not sent', description: ack.message });
    return false;
  } catch {
    track.setStatus(id, 'failed');
    notify({ title: 'Message not sent', description: 'Request timed out. Check your connection and try again.' });
    return false;
  }
}
