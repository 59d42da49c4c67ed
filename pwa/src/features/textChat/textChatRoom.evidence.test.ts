import { describe, expect, it, vi } from 'vitest';
import { chatEvents } from '@parley/contract/chat';
import { conversationReport } from '../../realtime/reportEvidence';
import { setUpTextChat } from './textChatTest';

// What a report of a text chat carries: each message under the server's id, with its receipt.
const c = setUpTextChat();

describe('text chat: the evidence a report carries', () => {
  it('keeps the server’s id and receipt of every message, ours and the stranger’s, and reports them', async () => {
    await c.matched();
    const sent: Array<{ id: string; text: string }> = [];
    c.server.on(chatEvents.message, (m: { id: string; text: string }, ack: (a: unknown) => void) => {
      sent.push(m);
      ack({ ok: true, id: m.id, messageId: 'server-id-1', sentAt: 1000, receipt: 'receipt-of-mine', delivered: true });
    });
    expect(await c.store.dispatch(c.room.sendMessage('hello', c.notify))).toBe(true);
    await c.server.timeout(1000).emitWithAck(chatEvents.message, { id: 'server-id-2', text: 'go away', sentAt: 2000, receipt: 'receipt-of-theirs' });
    await vi.waitFor(() => expect(c.store.getState().chat.messageState).toHaveLength(2));

    // The page's own id went to the server only to match the answer.
    expect(sent[0]!.id).toMatch(/^[\w.:-]{1,64}$/);
    expect(c.store.getState().chat.messageState[0]).toMatchObject({ id: sent[0]!.id, messageId: 'server-id-1', receipt: 'receipt-of-mine' });
    const body = conversationReport(c.store.getState().chat, 'textChat', { reason: 'harassment', note: '', block: true });
    expect(body).toMatchObject({
      reportedUserId: 'u2',
      context: 'textChat',
      roomId: 'room-1',
      messages: [
        { id: 'server-id-1', from: 'me', text: 'hello', sentAt: 1000, receipt: 'receipt-of-mine' },
        { id: 'server-id-2', from: 'them', text: 'go away', sentAt: 2000, receipt: 'receipt-of-theirs' },
      ],
    });
  });

  it('leaves out a message of ours the server never answered with its id', async () => {
    await c.matched();
    // An older server's answer, without the id of the relayed message: not sent, as far as this page knows.
    c.server.on(chatEvents.message, (m: { id: string }, ack: (a: unknown) => void) =>
      ack({ ok: true, id: m.id, sentAt: 1000, receipt: 'r', delivered: true }),
    );
    expect(await c.store.dispatch(c.room.sendMessage('hello', c.notify))).toBe(false);
    expect(c.store.getState().chat.messageState[0]).toMatchObject({ status: 'failed' });
    expect(c.notices[0]!.title).toBe('Message not sent');
    expect(conversationReport(c.store.getState().chat, 'textChat', { reason: 'spam', note: '', block: false })!.messages).toEqual([]);
  });
});
