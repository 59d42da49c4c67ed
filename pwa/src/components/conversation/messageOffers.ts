/** What a message offers of the conversation's own actions, beside Report and the moderators' ones. */
export type MessageOffers = { reply: boolean; react: boolean; editOwn: boolean; deleteOwn: boolean; confirmDelete: boolean };

/** Group rooms and direct messages: a conversation kept for good, its messages answered, reacted to, edited. */
export const ROOM_OFFERS: MessageOffers = { reply: true, react: true, editOwn: true, deleteOwn: true, confirmDelete: true };

/** A stream's chat: lines that scroll by; only moderators delete, and at once. */
export const STREAM_OFFERS: MessageOffers = { reply: false, react: false, editOwn: false, deleteOwn: false, confirmDelete: false };

/** A 1:1 chat with a stranger: reacted to, edited and taken back while it lasts; its composer is the page's, without replies. */
export const STRANGER_OFFERS: MessageOffers = { reply: false, react: true, editOwn: true, deleteOwn: true, confirmDelete: true };
