import { describe, expect, it, vi } from 'vitest';
import { chatEvents } from '@parley/contract/chat';
import { setUpTextChat } from './textChatTest';

// Messages in a text room: receipts, refusals, Retry, and what waits while the stranger is away.
const c = setUpTextChat();

describe('text chat: messages', () => {
  it('marks a sent message delivered when the server acknowledges delivery', async () => {
    await c.matched();
    c.server.on(chatEvents.message, (m: { id: string; text: string }, ack: (a: unknown) => void) =>
      ack({ ok: true, id: m.id, messageId: `s-${m.id}`, sentAt: 1234, delivered: true }),
    );
    const sending = c.store.dispatch(c.room.sendMessage('hello 👋', c.notify));
    expect(c.store.getState().chat.messageState[0]).toMatchObject({ text: 'hello 👋', from: 'me', status: 'sending' });
    expect(await sending).toBe(true);
    expect(c.store.getState().chat.messageState[0]).toMatchObject({ status: 'delivered', sentAt: 1234 });
  });

  it('marks a message failed and says why when the server refuses it', async () => {
    await c.matched();
    c.server.on(chatEvents.message, (_m: unknown, ack: (a: unknown) => void) =>
      ack({ ok: false, message: 'You are sending messages too fast.', code: 'rate_limited' }),
    );
    expect(await c.store.dispatch(c.room.sendMessage('hi', c.notify))).toBe(false);
    expect(c.store.getState().chat.messageState[0]!.status).toBe('failed');
    expect(c.notices).toEqual([{ title: 'Slow down', description: 'You are sending messages too fast.' }]);
  });

  it('refuses an empty message on the client without sending anything', async () => {
    await c.matched();
    expect(await c.store.dispatch(c.room.sendMessage('   ', c.notify))).toBe(false);
    expect(c.store.getState().chat.messageState).toEqual([]);
    expect(c.notices[0]!.title).toBe('Message not sent');
  });

  it("shows the partner's messages and acknowledges each one (the delivery receipt)", async () => {
    await c.matched();
    c.server.emit(chatEvents.typing, { typing: true });
    await vi.waitFor(() => expect(c.store.getState().chat.partnerTyping).toBe(true));
    const ack = await c.server.timeout(1000).emitWithAck(chatEvents.message, { id: 'm1', text: 'hey there', sentAt: 99 });
    expect(ack).toEqual({ ok: true, id: 'm1' });
    expect(c.store.getState().chat.messageState).toEqual([
      { id: 'm1', messageId: 'm1', text: 'hey there', sentAt: 99, from: 'stranger', status: 'delivered' },
    ]);
    expect(c.store.getState().chat.partnerTyping).toBe(false);
  });

  it('messages the stranger could not get while away go once they are back, in order; one cut off by a chat that ended stays not sent', async () => {
    await c.matched();
    let partnerHere = false;
    const attempts: string[] = [];
    c.server.on(chatEvents.message, (m: { id: string; text: string }, ack: (a: unknown) => void) => {
      attempts.push(m.text);
      if (!partnerHere)
        ack({ ok: false, message: 'Stranger lost their connection. Wait a moment for them to come back.', code: 'partner_away' });
      else ack({ ok: true, id: m.id, messageId: `s-${m.id}`, sentAt: 5, delivered: true });
    });
    // Sent before the page knew: the server refuses it; the page then learns the stranger is away.
    expect(await c.store.dispatch(c.room.sendMessage('first', c.notify))).toBe(false);
    expect(c.store.getState().chat.messageState[0]).toMatchObject({ status: 'failed', unsent: 'connection' });
    c.server.emit(chatEvents.partnerAway, { roomId: 'room-1' });
    await vi.waitFor(() => expect(c.store.getState().chat.partnerAway).toBe(true));
    // Sent knowing it: it waits on the page, behind the first.
    expect(await c.store.dispatch(c.room.sendMessage('second', c.notify))).toBe(true);
    expect(c.store.getState().chat.messageState[1]).toMatchObject({ text: 'second', status: 'failed', unsent: 'connection' });
    expect(attempts).toEqual(['first']);
    expect(c.notices).toEqual([]);
    partnerHere = true;
    c.server.emit(chatEvents.partnerBack, { roomId: 'room-1' });
    await vi.waitFor(() => expect(c.store.getState().chat.messageState.map((m) => m.status)).toEqual(['delivered', 'delivered']));
    expect(attempts).toEqual(['first', 'first', 'second']);

    c.server.emit(chatEvents.partnerAway, { roomId: 'room-1' });
    await vi.waitFor(() => expect(c.store.getState().chat.partnerAway).toBe(true));
    await c.store.dispatch(c.room.sendMessage('still there?', c.notify));
    c.server.emit(chatEvents.partnerLeft, { roomId: 'room-1', reason: 'disconnected' });
    await vi.waitFor(() => expect(c.store.getState().chat.isPeerDisconnected).toBe(true));
    expect(c.store.getState().chat.messageState[2]).toMatchObject({ text: 'still there?', status: 'failed' });
    expect(c.store.getState().chat.messageState[2]).not.toHaveProperty('unsent');
  });

  it('a backlog larger than the message allowance goes in rounds, in order, without "Slow down"', async () => {
    await c.matched();
    // The server's allowance: a bucket of 12 that refills at 10 a second; the stranger is away at first.
    let partnerHere = false;
    let tokens = 12;
    const refill = setInterval(() => (tokens = Math.min(12, tokens + 1)), 100);
    const delivered: string[] = [];
    const refusedForRate: string[] = [];
    c.server.on(chatEvents.message, (m: { id: string; text: string }, ack: (a: unknown) => void) => {
      if (!partnerHere) return ack({ ok: false, message: 'Stranger lost their connection.', code: 'partner_away' });
      if (tokens < 1) {
        refusedForRate.push(m.text);
        return ack({ ok: false, message: 'You are sending messages too fast.', code: 'rate_limited' });
      }
      tokens--;
      if (!delivered.includes(m.text)) delivered.push(m.text);
      ack({ ok: true, id: m.id, messageId: `s-${m.id}`, sentAt: 5, delivered: true });
    });
    const texts = Array.from({ length: 25 }, (_, i) => `m${String(i).padStart(2, '0')}`);
    await c.store.dispatch(c.room.sendMessage(texts[0]!, c.notify));
    c.server.emit(chatEvents.partnerAway, { roomId: 'room-1' });
    await vi.waitFor(() => expect(c.store.getState().chat.partnerAway).toBe(true));
    for (const t of texts.slice(1)) await c.store.dispatch(c.room.sendMessage(t, c.notify));
    expect(c.store.getState().chat.messageState.every((m) => m.unsent === 'connection')).toBe(true);

    partnerHere = true;
    c.server.emit(chatEvents.partnerBack, { roomId: 'room-1' });
    // One more typed while the backlog drains goes behind it.
    await vi.waitFor(() => expect(delivered.length).toBeGreaterThanOrEqual(10));
    expect(delivered.length).toBeLessThan(25);
    await c.store.dispatch(c.room.sendMessage('typed meanwhile', c.notify));
    await vi.waitFor(() => expect(c.store.getState().chat.messageState.every((m) => m.status === 'delivered')).toBe(true), {
      timeout: 5000,
    });
    clearInterval(refill);
    expect(delivered).toEqual([...texts, 'typed meanwhile']);
    expect(refusedForRate).toEqual([]);
    expect(c.notices).toEqual([]);
  });

  it('a message the server took but the stranger never acknowledged (their connection had died unnoticed) goes again when they are back', async () => {
    await c.matched();
    const attempts: string[] = [];
    c.server.on(chatEvents.message, (m: { id: string }, ack: (a: unknown) => void) => {
      attempts.push(m.id);
      ack({ ok: true, id: m.id, messageId: `s-${m.id}`, sentAt: 5, delivered: attempts.length > 1 });
    });
    await c.store.dispatch(c.room.sendMessage('hi?', c.notify));
    expect(c.store.getState().chat.messageState[0]!.status).toBe('sent');
    // A new message does not send it again: only the stranger coming back does.
    await c.store.dispatch(c.room.sendMessage('hello?', c.notify));
    expect(attempts).toHaveLength(2);
    c.server.emit(chatEvents.partnerAway, { roomId: 'room-1' });
    c.server.emit(chatEvents.partnerBack, { roomId: 'room-1' });
    await vi.waitFor(() => expect(c.store.getState().chat.messageState[0]!.status).toBe('delivered'));
    expect(attempts).toEqual([attempts[0], attempts[1], attempts[0]]);
  });

  it('Retry sends a message that was not sent again under the same id; the stale answer of an older attempt changes nothing', async () => {
    await c.matched();
    const answers: Array<(a: unknown) => void> = [];
    const ids: string[] = [];
    c.server.on(chatEvents.message, (m: { id: string }, ack: (a: unknown) => void) => {
      ids.push(m.id);
      answers.push(ack);
    });
    const first = c.store.dispatch(c.room.sendMessage('hello', c.notify));
    await vi.waitFor(() => expect(answers).toHaveLength(1));
    answers[0]!({ ok: false, message: 'You are sending messages too fast.', code: 'rate_limited' });
    expect(await first).toBe(false);
    const id = c.store.getState().chat.messageState[0]!.id;
    expect(c.store.getState().chat.messageState[0]).toMatchObject({ status: 'failed' });
    // Only a failed message of ours can be retried.
    expect(await c.store.dispatch(c.room.retryMessage('no-such-id', c.notify))).toBe(false);
    const retry = c.store.dispatch(c.room.retryMessage(id, c.notify));
    expect(c.store.getState().chat.messageState[0]!.status).toBe('sending');
    await vi.waitFor(() => expect(answers).toHaveLength(2));
    expect(ids).toEqual([id, id]);
    answers[1]!({ ok: true, id, messageId: `s-${id}`, sentAt: 42, delivered: true });
    expect(await retry).toBe(true);
    expect(c.store.getState().chat.messageState).toEqual([expect.objectContaining({ id, text: 'hello', status: 'delivered', sentAt: 42 })]);
    expect(await c.store.dispatch(c.room.retryMessage(id, c.notify))).toBe(false);
  });

  it('a message the conversation already shows is acknowledged again but not shown twice', async () => {
    await c.matched();
    const message = { id: 'm1', text: 'hello again', sentAt: 5 };
    expect(await c.server.timeout(1000).emitWithAck(chatEvents.message, message)).toEqual({ ok: true, id: 'm1' });
    expect(await c.server.timeout(1000).emitWithAck(chatEvents.message, message)).toEqual({ ok: true, id: 'm1' });
    expect(c.store.getState().chat.messageState).toHaveLength(1);
  });
});
