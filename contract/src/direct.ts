/** Direct messages: one stored room per pair of friends, opened on first use. */

export type Conversation = {
  roomId: string;
  /** The friend on the other side. */
  userId: string;
  username: string;
  avatar: string;
  online: boolean;
  lastMessage: { text: string; senderId: string; sentAt: number; deleted: boolean } | null;
  unread: number;
};

export type ConversationsAnswer = { conversations: Conversation[]; unreadTotal: number };
export type OpenDirectAnswer = { roomId: string; userId: string; username: string; avatar: string; online: boolean };

export const DIRECT_REFUSALS = {
  notFriends: 'You can send direct messages to friends only.',
  blocked: 'This conversation is closed: one of you blocked the other. Neither of you can send messages here any more.',
  unknownUser: 'There is no one with that username.',
} as const;
