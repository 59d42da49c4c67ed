import { describe, expect, it, vi } from 'vitest';
import type { Socket as ServerSocket } from 'socket.io';
import { chatEvents } from '@parley/contract/matchmaking';
import { getSocketStatus, subscribeSocketStatus } from '../../realtime/socket';
import { setup, setUpVideoChat } from './videoChatTest';
import { i18n } from '@lingui/core';

// The messages in English: the interface language the tests read.
i18n.loadAndActivate({ locale: 'en', messages: {} });

// The video chat's search: Next in a call and after it, Stop, and a search across a dropped connection.
const c = setUpVideoChat();

describe('video chat: searching, skipping and stopping', () => {
  it('Next in a call asks the server to skip only (no second start that could end the next room)', async () => {
    c.store.dispatch(c.room.startSearch(c.notify));
    await vi.waitFor(() => expect(c.received).toContain(chatEvents.start));
    c.server.emit(chatEvents.matched, setup);
    await vi.waitFor(() => expect(c.store.getState().videoChat.roomId).toBe('room-1'));
    c.received.length = 0;

    c.store.dispatch(c.room.next(c.notify));
    await vi.waitFor(() => expect(c.received).toContain(chatEvents.next));
    await new Promise((r) => setTimeout(r, 50));
    expect(c.received).toEqual([chatEvents.next]);
    expect(c.store.getState().videoChat).toMatchObject({ phase: 'searching', roomId: null, receiver: null });
  });

  it('Next after the partner left starts a new search', async () => {
    c.store.dispatch(c.room.startSearch(c.notify));
    await vi.waitFor(() => expect(c.received).toContain(chatEvents.start));
    c.server.emit(chatEvents.matched, setup);
    c.server.emit(chatEvents.partnerLeft, { roomId: 'room-1', reason: 'skip' });
    await vi.waitFor(() => expect(c.store.getState().videoChat.phase).toBe('ended'));
    c.received.length = 0;

    c.store.dispatch(c.room.next(c.notify));
    await vi.waitFor(() => expect(c.received).toEqual([chatEvents.start]));
    expect(c.store.getState().videoChat.phase).toBe('searching');
  });

  it('ignores a match that crossed the Stop on the way (no call to a partner the server let go)', async () => {
    c.store.dispatch(c.room.startSearch(c.notify));
    await vi.waitFor(() => expect(c.received).toContain(chatEvents.start));
    c.store.dispatch(c.room.leave());
    c.server.emit(chatEvents.searching, { roomType: 'videoChat', requeued: false });
    c.server.emit(chatEvents.matched, setup);
    await new Promise((r) => setTimeout(r, 100));
    expect(c.store.getState().videoChat).toMatchObject({ phase: 'idle', roomId: null });
  });

  it('a search cut by a drop is sent again under its own id, so a room matched meanwhile comes back', async () => {
    const starts: Array<{ searchId: string }> = [];
    c.server.on(chatEvents.start, (p: { searchId: string }) => starts.push(p));
    c.store.dispatch(c.room.startSearch(c.notify));
    await vi.waitFor(() => expect(starts).toHaveLength(1));
    let resent!: Promise<{ searchId: string }>;
    const again = new Promise<ServerSocket>((resolve) =>
      c.io.once('connection', (sock: ServerSocket) => {
        resent = new Promise((r) => sock.once(chatEvents.start, r));
        resolve(sock);
      }),
    );
    c.server.conn.close();
    c.server = await again;
    const { searchId } = await resent;
    expect(searchId).toBe(starts[0]!.searchId);
    c.server.emit(chatEvents.matched, { ...setup, searchId, callAttempt: 1 });
    await vi.waitFor(() => expect(c.store.getState().videoChat).toMatchObject({ roomId: 'room-1', callAttempt: 1, phase: 'connecting' }));
  });

  it('a search stopped while the connection is down ends, once back, a room the server held for it', async () => {
    c.store.dispatch(c.room.startSearch(c.notify));
    await vi.waitFor(() => expect(c.received).toContain(chatEvents.start));
    const stops: unknown[] = [];
    const again = new Promise<ServerSocket>((resolve) =>
      c.io.once('connection', (sock: ServerSocket) => {
        sock.on(chatEvents.stop, () => stops.push(true));
        resolve(sock);
      }),
    );
    // Stop pressed the moment the connection is seen gone (the reconnection here takes 20 ms).
    let stoppedOffline = false;
    const off = subscribeSocketStatus(() => {
      if (getSocketStatus() !== 'reconnecting' || stoppedOffline) return;
      stoppedOffline = true;
      c.store.dispatch(c.room.leave());
    });
    c.server.conn.close();
    c.server = await again;
    off();
    expect(stoppedOffline).toBe(true);
    expect(c.store.getState().videoChat.phase).toBe('idle');
    await vi.waitFor(() => expect(stops).toHaveLength(1));
  });
});
