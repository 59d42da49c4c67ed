import type { ChatMessage } from '@parley/contract/chat';

/**
 * A one-on-one conversation's state, shared by the text and the video chat: its messages (what a
 * message is, how one is added or changes status, how its status reads) and the flags of a room
 * held for a dropped connection (lib/resume.ts). Reducer helpers each slice applies to its own
 * fields.
 */

/** A message as the conversation shows it: whose it is and how far it got. */
export type ConversationMessage = ChatMessage & {
  from: 'me' | 'stranger';
  status: 'sending' | 'sent' | 'delivered' | 'failed';
  /** Failed because a connection dropped: sent again, under the same id, once both are back. */
  unsent?: 'connection';
};

export type MessageStatusChange = { id: string; status: ConversationMessage['status']; sentAt?: number; unsent?: 'connection' };

/**
 * Adds a message unless the conversation already shows it (a sender resends one that had arrived
 * after all after a dropped connection); a new message from the stranger ends their "typing".
 * False when it was already there.
 */
export function messageAdded(state: { partnerTyping: boolean }, messages: ConversationMessage[], message: ConversationMessage): boolean {
  if (messages.some((m) => m.id === message.id && m.from === message.from)) return false;
  messages.push(message);
  if (message.from === 'stranger') state.partnerTyping = false;
  return true;
}

/** One of our messages got further (or failed; `unsent` when it waits to be sent again). */
export function messageStatusChanged(messages: ConversationMessage[], change: MessageStatusChange) {
  const m = messages.find((x) => x.id === change.id && x.from === 'me');
  if (!m) return;
  m.status = change.status;
  if (change.sentAt) m.sentAt = change.sentAt;
  if (change.unsent) m.unsent = change.unsent;
  else delete m.unsent;
}

const STATUS_TEXT: Record<ConversationMessage['status'], string> = {
  sending: 'Sending…',
  sent: 'Sent',
  delivered: 'Delivered',
  failed: 'Not sent',
};

/** How far one of our messages got, as the conversation shows it. */
export const statusText = (m: Pick<ConversationMessage, 'status' | 'unsent'>): string =>
  m.unsent ? 'Not sent yet' : STATUS_TEXT[m.status];

/** A message quoted in a label or an announcement: its first 40 characters. */
export const quoteMessage = (text: string): string => `“${text.length > 40 ? `${text.slice(0, 40)}…` : text}”`;

export type HeldRoomFlags = { reconnecting: boolean; partnerAway: boolean; partnerTyping: boolean };

/** Our socket dropped in a room: the room is kept; what was on its way waits to be sent again. */
export function roomDropped(state: HeldRoomFlags, messages: ConversationMessage[]) {
  state.reconnecting = true;
  state.partnerTyping = false;
  for (const m of messages)
    if (m.status === 'sending') {
      m.status = 'failed';
      m.unsent = 'connection';
    }
}

/** Back on a new connection, the server gave the room back. */
export function roomResumed(state: HeldRoomFlags, partnerAway: boolean) {
  state.reconnecting = false;
  state.partnerAway = partnerAway;
}

/** The partner's connection dropped (away) or came back. */
export function partnerAwayChanged(state: HeldRoomFlags, away: boolean) {
  state.partnerAway = away;
  if (away) state.partnerTyping = false;
}

/** The room is over: what was waiting to be sent again stays not sent. */
export function giveUpWaiting(messages: ConversationMessage[]) {
  for (const m of messages) {
    if (m.status === 'sending') m.status = 'failed';
    delete m.unsent;
  }
}
