import { describe, expect, it } from 'vitest';
import type { RoomMessage } from '@parley/contract/rooms';
import { conversationReport } from './reportEvidence';

const message = (over: Partial<RoomMessage>): RoomMessage => ({
  roomId: 'room-1',
  id: 1,
  senderId: 'me',
  senderName: 'me',
  text: 'hello',
  sentAt: 1000,
  editedAt: null,
  deleted: false,
  replyTo: null,
  mentions: [],
  reactions: [],
  clientId: null,
  ...over,
});

const room = { conversationRoomId: 'room-1', receiver: { userId: 'u2' } };
const choice = { reason: 'harassment', note: '', block: true } as const;

// What a report of a 1:1 chat carries: each message under the server's id, as last edited, with its receipt.
describe('the evidence a report of a 1:1 chat carries', () => {
  it('names the picture a message carried, so that the report keeps it', () => {
    const picture = {
      id: 'a7c3f1de-0000-4000-8000-000000000001',
      kind: 'image' as const,
      width: 4,
      height: 3,
      url: '/full',
      thumbUrl: '/thumb',
    };
    const messages = [message({ id: 1, senderId: 'u2', text: '', receipt: 'receipt-of-picture', attachment: picture })];
    expect(conversationReport(room, { messages, myId: 'me' }, 'textChat', choice)?.messages).toEqual([
      { id: '1', from: 'them', text: '', sentAt: 1000, receipt: 'receipt-of-picture', attachmentId: picture.id },
    ]);
  });

  it('is every signed message, ours and the partner’s, under the server’s ids', () => {
    const messages = [
      message({ id: 1, text: 'hello', receipt: 'receipt-of-mine' }),
      message({ id: 2, senderId: 'u2', text: 'go away', sentAt: 2000, editedAt: 2500, receipt: 'receipt-of-theirs' }),
    ];
    expect(conversationReport(room, { messages, myId: 'me' }, 'textChat', choice)).toMatchObject({
      reportedUserId: 'u2',
      context: 'textChat',
      roomId: 'room-1',
      block: true,
      messages: [
        { id: '1', from: 'me', text: 'hello', sentAt: 1000, receipt: 'receipt-of-mine' },
        { id: '2', from: 'them', text: 'go away', sentAt: 2000, receipt: 'receipt-of-theirs' },
      ],
    });
  });

  it('leaves out what the server did not sign and what was deleted', () => {
    const messages = [message({ id: 1 }), message({ id: 2, senderId: 'u2', deleted: true, text: '' }), message({ id: 3, receipt: 'r' })];
    expect(conversationReport(room, { messages, myId: 'me' }, 'videoChat', choice)!.messages).toEqual([
      { id: '3', from: 'me', text: 'hello', sentAt: 1000, receipt: 'r' },
    ]);
    expect(conversationReport({ ...room, receiver: null }, { messages, myId: 'me' }, 'textChat', choice)).toBeNull();
  });
});
