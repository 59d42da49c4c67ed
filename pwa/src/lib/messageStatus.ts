import { quoteMessage, type ConversationMessage } from './conversation';

/**
 * What a screen reader should hear when the user's own messages change state. The conversation
 * (role log) announces new messages only; a message refused, waiting for the connection, or sent
 * after waiting changes a row that is already there, which a live log does not read out.
 * "Sending…" → "Sent" → "Delivered" of every message is not announced: it would talk over the chat.
 */

/** The parts of a text or video chat message this needs. */
export type OwnMessageView = Pick<ConversationMessage, 'id' | 'from' | 'text' | 'status' | 'unsent'>;

/** Where each of the user's messages was at the last announcement, and arrivals not yet told. */
export type StatusSeen = { readonly byId: ReadonlyMap<string, 'failed' | 'waiting' | 'other'>; readonly arrived: number };

export const NOTHING_SEEN: StatusSeen = { byId: new Map(), arrived: 0 };

/**
 * The announcement for what changed since `before` (undefined when nothing worth saying), and
 * what is seen now. A waiting message stays "waiting" while it is being sent again, so that its
 * arrival can be told; arrivals are told together once none is waiting any more. `canRetry`: the
 * conversation offers Retry on a refused message (not once the chat is over).
 */
export function statusAnnouncement(
  before: StatusSeen,
  messages: readonly OwnMessageView[],
  canRetry: boolean,
): { text: string | undefined; seen: StatusSeen } {
  const byId = new Map<string, 'failed' | 'waiting' | 'other'>();
  const refused: string[] = [];
  let waiting = 0;
  let stillWaiting = false;
  let arrived = before.arrived;
  for (const m of messages) {
    if (m.from !== 'me') continue;
    const was = before.byId.get(m.id);
    const now =
      m.status === 'failed' ? (m.unsent ? 'waiting' : 'failed') : m.status === 'sending' && was === 'waiting' ? 'waiting' : 'other';
    byId.set(m.id, now);
    if (now === 'waiting') stillWaiting = true;
    if (now === 'failed' && was !== 'failed') refused.push(m.text);
    else if (now === 'waiting' && was !== 'waiting') waiting++;
    else if (now === 'other' && was === 'waiting') arrived++;
  }
  const parts: string[] = [];
  const retry = canRetry ? (refused.length === 1 ? ' Retry is next to it.' : ' Retry is next to each.') : '';
  if (refused.length === 1) parts.push(`Message ${quoteMessage(refused[0]!)} not sent.${retry}`);
  else if (refused.length > 1) parts.push(`${refused.length} messages not sent.${retry}`);
  if (waiting > 0) parts.push(`${waiting === 1 ? 'Message' : `${waiting} messages`} not sent yet: sent by itself as soon as it can be.`);
  if (arrived > 0 && !stillWaiting) {
    parts.push(arrived === 1 ? 'Your waiting message was sent.' : `Your ${arrived} waiting messages were sent.`);
    arrived = 0;
  }
  return { text: parts.length > 0 ? parts.join(' ') : undefined, seen: { byId, arrived } };
}
