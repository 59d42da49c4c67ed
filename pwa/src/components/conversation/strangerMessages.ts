import { statusText, type ConversationMessage } from '../../lib/conversation';
import type { ShownMessage } from './MessageRow';

const ME: ConversationMessage['from'] = 'me';

/** The connection's messages adapted for the view, and what the next adaptation goes on from. */
export type ShownConversation = {
  from: readonly ConversationMessage[];
  partnerName: string;
  ownedNames: readonly string[];
  shown: readonly ShownMessage[];
  /** Each message's number in the view (`from-id` → number), in order of arrival. */
  numbers: ReadonlyMap<string, number>;
  next: number;
};

/**
 * The connection's messages as the view draws them. A message keeps its number while the
 * conversation lasts (the oldest may be dropped from the top), and its object while it does not
 * change, so only a changed row renders again.
 */
export function adaptMessages(
  prev: ShownConversation | null,
  messages: readonly ConversationMessage[],
  partnerName: string,
  ownedNames: readonly string[],
): ShownConversation {
  const reuse = new Map<ConversationMessage, ShownMessage>();
  if (prev && prev.partnerName === partnerName && prev.ownedNames === ownedNames) prev.from.forEach((m, i) => reuse.set(m, prev.shown[i]!));
  const numbers = new Map<string, number>();
  // A new conversation numbers from the start again.
  let next = messages.length === 0 || !prev ? 1 : prev.next;
  const shown = messages.map((m) => {
    const key = `${m.from}-${m.id}`;
    const id = prev?.numbers.get(key) ?? next++;
    numbers.set(key, id);
    return reuse.get(m) ?? toShown(m, id, partnerName, ownedNames);
  });
  return { from: messages, partnerName, ownedNames, shown, numbers, next };
}

function toShown(m: ConversationMessage, id: number, partnerName: string, ownedNames: readonly string[]): ShownMessage {
  const mine = m.from === ME;
  return {
    roomId: '',
    id,
    senderId: m.from,
    senderName: mine ? 'You' : partnerName,
    text: m.text,
    sentAt: m.sentAt,
    editedAt: null,
    deleted: false,
    replyTo: null,
    mentions: [],
    reactions: [],
    // Ours carry the connection's id: what Retry sends again.
    clientId: mine ? m.id : null,
    // Theirs: the shortcodes the server checked; ours: those we own (the server marks them the same for the partner).
    ...(mine ? { emoji: [...ownedNames], delivery: { status: m.status, text: statusText(m) } } : m.emoji ? { emoji: m.emoji } : {}),
  };
}
