/**
 * What a screen reader should hear when the user's own messages change state. The conversation
 * (role log) announces new messages only; a message refused, waiting for the connection, or sent
 * after waiting changes a row that is already there, which a live log does not read out.
 * "Sending…" → "Sent" → "Delivered" of every message is not announced: it would talk over the chat.
 */

/** The parts of a text or video chat message this needs. */
export type OwnMessageView = {
  id: string;
  from: 'me' | 'stranger';
  text: string;
  status: 'sending' | 'sent' | 'delivered' | 'failed';
  unsent?: 'connection';
};

/** Where each of the user's messages was at the last announcement. */
export type StatusSeen = ReadonlyMap<string, 'failed' | 'waiting' | 'other'>;

const quote = (text: string) => `“${text.length > 40 ? `${text.slice(0, 40)}…` : text}”`;

/**
 * The announcement for what changed since `before` (undefined when nothing worth saying), and
 * what is seen now. A waiting message stays "waiting" while it is being sent again, so that its
 * arrival can be told.
 */
export function statusAnnouncement(before: StatusSeen, messages: readonly OwnMessageView[]): { text: string | undefined; seen: StatusSeen } {
  const seen = new Map<string, 'failed' | 'waiting' | 'other'>();
  const refused: string[] = [];
  let waiting = 0;
  let arrived = 0;
  for (const m of messages) {
    if (m.from !== 'me') continue;
    const was = before.get(m.id);
    const now =
      m.status === 'failed' ? (m.unsent ? 'waiting' : 'failed') : m.status === 'sending' && was === 'waiting' ? 'waiting' : 'other';
    seen.set(m.id, now);
    if (now === 'failed' && was !== 'failed') refused.push(m.text);
    else if (now === 'waiting' && was !== 'waiting') waiting++;
    else if (now === 'other' && was === 'waiting') arrived++;
  }
  const parts: string[] = [];
  if (refused.length === 1) parts.push(`Message ${quote(refused[0]!)} not sent. Retry is next to it.`);
  else if (refused.length > 1) parts.push(`${refused.length} messages not sent. Retry is next to each.`);
  if (waiting > 0)
    parts.push(`${waiting === 1 ? 'Message' : `${waiting} messages`} not sent yet: sent when you are both connected again.`);
  if (arrived > 0) parts.push(arrived === 1 ? 'Your waiting message was sent.' : `Your ${arrived} waiting messages were sent.`);
  return { text: parts.length > 0 ? parts.join(' ') : undefined, seen };
}
