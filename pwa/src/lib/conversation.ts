import type { ChatMessage } from '@parley/contract/chat';

/**
 * A conversation's messages as every room kind shows them: whose a message is, how far it got and
 * how that reads. How they change lives with the room's state (realtime/roomState.ts).
 */

/** A message as the conversation shows it: whose it is and how far it got. */
export type ConversationMessage = ChatMessage & {
  from: 'me' | 'stranger';
  status: 'sending' | 'sent' | 'delivered' | 'failed';
  /** Failed because a connection dropped: sent again, under the same id, once both are back. */
  unsent?: 'connection';
  /**
   * The server's id of the relayed message, which its receipt names: a received message's `id`;
   * ours once the server acknowledged it (our `id` is the page's own, for the acknowledgement).
   */
  messageId?: string;
};

export type MessageStatusChange = {
  id: string;
  status: ConversationMessage['status'];
  sentAt?: number;
  unsent?: 'connection';
  messageId?: string;
  receipt?: string;
};

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
