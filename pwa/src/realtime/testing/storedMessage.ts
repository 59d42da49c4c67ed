import type { RoomMessage } from '@parley/contract/rooms';

/** A stored message for client tests: id `id` of room `roomId`, from bob, text `m<id>`. */
export const storedMessage = (id: number, over: Partial<RoomMessage> = {}, roomId = 'r'): RoomMessage => ({
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
