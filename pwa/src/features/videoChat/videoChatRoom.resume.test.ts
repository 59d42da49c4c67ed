import { describe, expect, it, vi } from 'vitest';
import { chatEvents } from '@parley/contract/chat';
import { getSocketStatus } from '../../realtime/socket';
import { setup, setUpVideoChat } from './videoChatTest';

// Messages beside the video, and a dropped connection: the room held (the call goes on), taken back, or over.
const c = setUpVideoChat();

describe('video chat: messages and a dropped connection', () => {
  it("Retry sends a refused message again under its own id; the stranger's copy of an id shows once", async () => {
    c.store.dispatch(c.room.startSearch(c.notify));
    await vi.waitFor(() => expect(c.received).toContain(chatEvents.start));
    c.server.emit(chatEvents.matched, setup);
    await vi.waitFor(() => expect(c.store.getState().videoChat.roomId).toBe('room-1'));
    const ids: string[] = [];
    c.server.on(chatEvents.message, (m: { id: string }, ack: (a: unknown) => void) => {
      ids.push(m.id);
      if (ids.length === 1) ack({ ok: false, message: 'You are sending messages too fast.', code: 'rate_limited' });
      else ack({ ok: true, id: m.id, messageId: `s-${m.id}`, sentAt: 9, delivered: true });
    });
    expect(await c.store.dispatch(c.room.sendMessage('hi there', c.notify))).toBe(false);
    const id = c.store.getState().videoChat.messageState[0]!.id;
    expect(c.store.getState().videoChat.messageState[0]!.status).toBe('failed');
    expect(await c.store.dispatch(c.room.retryMessage(id, c.notify))).toBe(true);
    expect(ids).toEqual([id, id]);
    expect(c.store.getState().videoChat.messageState).toEqual([expect.objectContaining({ id, status: 'delivered', sentAt: 9 })]);
    expect(await c.store.dispatch(c.room.retryMessage(id, c.notify))).toBe(false);

    const message = { id: 's1', text: 'hello', sentAt: 1 };
    await c.server.timeout(1000).emitWithAck(chatEvents.message, message);
    await c.server.timeout(1000).emitWithAck(chatEvents.message, message);
    expect(c.store.getState().videoChat.messageState.filter((m) => m.from === 'stranger')).toHaveLength(1);
  });

  it('a dropped connection keeps the room (the call goes on) and takes it back; what was cut off goes again', async () => {
    await c.inRoom();
    const firstAttempt = new Promise<void>((resolve) => c.server.on(chatEvents.message, () => resolve()));
    const cut = c.store.dispatch(c.room.sendMessage('still there?', c.notify));
    await firstAttempt;
    const sent: string[] = [];
    const again = c.nextConnection({ ok: true, partnerAway: false }, sent);
    c.server.conn.close();
    expect(await cut).toBe(false);
    expect(c.store.getState().videoChat).toMatchObject({
      phase: 'connecting',
      roomId: 'room-1',
      reconnecting: true,
      userIsDisconnected: false,
    });
    // Typed while reconnecting: it waits behind the one cut off.
    expect(await c.store.dispatch(c.room.sendMessage('hello?', c.notify))).toBe(true);
    c.server = await again;
    await vi.waitFor(() => expect(c.store.getState().videoChat.reconnecting).toBe(false));
    await vi.waitFor(() => expect(c.store.getState().videoChat.messageState.map((m) => m.status)).toEqual(['delivered', 'delivered']));
    expect(sent).toEqual(['still there?', 'hello?']);
    expect(c.store.getState().videoChat).toMatchObject({ phase: 'connecting', roomId: 'room-1', userIsDisconnected: false });
    expect(c.notices).toEqual([]);
    // The partner's connection drops and comes back too.
    c.server.emit(chatEvents.partnerAway, { roomId: 'room-1' });
    await vi.waitFor(() => expect(c.store.getState().videoChat.partnerAway).toBe(true));
    c.server.emit(chatEvents.partnerBack, { roomId: 'room-1' });
    await vi.waitFor(() => expect(c.store.getState().videoChat.partnerAway).toBe(false));
  });

  it('after a drop whose room the server no longer holds, or whose stranger left meanwhile, the room is over', async () => {
    await c.inRoom();
    const again = c.nextConnection({ ok: false });
    c.server.conn.close();
    c.server = await again;
    await vi.waitFor(() =>
      expect(c.store.getState().videoChat).toMatchObject({ phase: 'ended', userIsDisconnected: true, reconnecting: false }),
    );

    await vi.waitFor(() => expect(getSocketStatus()).toBe('connected'));
    c.server.onAny((name: string) => c.received.push(name));
    c.received = [];
    await c.inRoom();
    const third = c.nextConnection({ ok: false, partnerLeft: true });
    c.server.conn.close();
    c.server = await third;
    await vi.waitFor(() =>
      expect(c.store.getState().videoChat).toMatchObject({ phase: 'ended', isPeerDisconnected: true, reconnecting: false }),
    );
  });

  it('a room taken back after a drop follows the attempt its call was placed again under meanwhile', async () => {
    await c.inRoom();
    const again = c.nextConnection({ ok: true, partnerAway: false, callAttempt: 1 });
    c.server.conn.close();
    c.server = await again;
    await vi.waitFor(() =>
      expect(c.store.getState().videoChat).toMatchObject({ reconnecting: false, callAttempt: 1, phase: 'connecting' }),
    );
  });
});
