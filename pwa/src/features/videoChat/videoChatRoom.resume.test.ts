import { describe, expect, it, vi } from 'vitest';
import { chatEvents } from '@parley/contract/matchmaking';
import { getSocketStatus } from '../../realtime/socket';
import { setUpVideoChat } from './videoChatTest';

// A dropped connection: the room held (the call goes on), taken back, or over.
const c = setUpVideoChat();

describe('video chat: a dropped connection', () => {
  it('a dropped connection keeps the room (the call goes on) and takes it back', async () => {
    await c.inRoom();
    const again = c.nextConnection({ ok: true, partnerAway: false });
    c.server.conn.close();
    // Held while reconnecting: the room stays (the reconnection may already be under way).
    expect(c.store.getState().videoChat).toMatchObject({ phase: 'connecting', roomId: 'room-1', userIsDisconnected: false });
    c.server = await again;
    await vi.waitFor(() => expect(c.store.getState().videoChat.reconnecting).toBe(false));
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
