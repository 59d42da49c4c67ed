import type { StoredMessage } from '@parley/contract/storedRooms';

/** A stored message for client tests: id `id` of room `roomId`, from bob, text `m<id>`. */
export const storedMessage = (id: number, over: Partial<StoredMessage> = {}, roomId = 'r'): StoredMessage => ({
  roomId,
  id,
  senderId: 'u2',
  senderName: 'bob',
  text: `m${id}`,
  sentAt: id,
  editedAt: null,
  deleted: false,
  replyTo: null,
  mentions: [],
  reactions: [],
  clientId: null,
  ...over,
});
