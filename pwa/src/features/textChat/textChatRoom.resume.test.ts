import { describe, expect, it, vi } from 'vitest';
import type { Socket as ServerSocket } from 'socket.io';
import { chatEvents } from '@parley/contract/matchmaking';
import { searchPreferencesActions } from '../../realtime/searchPreferences';
import { untilConnected, whenSocketStatus } from '../../realtime/testing/socketServer';
import { setup, setUpTextChat } from './textChatTest';
import { i18n } from '@lingui/core';

// The messages in English: the interface language the tests read.
i18n.loadAndActivate({ locale: 'en', messages: {} });

// A dropped connection in a text room: held, taken back, left meanwhile, and what was cut off sent again.
const c = setUpTextChat();

describe('text chat: a dropped connection', () => {
  it('after a dropped connection the chat is kept while reconnecting, then taken back from the server', async () => {
    await c.matched();
    const again = c.nextConnection({ ok: true, partnerAway: true });
    // The reconnection takes 20 ms here: every state on the way is looked at.
    const states: Array<{ roomId: string | null; reconnecting: boolean; userIsDisconnected: boolean }> = [];
    const unsubscribe = c.store.subscribe(() => {
      const { roomId, reconnecting, userIsDisconnected } = c.store.getState().chat;
      states.push({ roomId, reconnecting, userIsDisconnected });
    });
    c.server.conn.close();
    c.server = await again;
    expect(await c.nextEvent(chatEvents.resume)).toEqual({ roomId: 'room-1' });
    await vi.waitFor(() => expect(c.store.getState().chat.partnerAway).toBe(true));
    unsubscribe();
    expect(states).toContainEqual({ roomId: 'room-1', reconnecting: true, userIsDisconnected: false });
    expect(states.every((x) => x.roomId === 'room-1' && !x.userIsDisconnected)).toBe(true);
    expect(c.store.getState().chat).toMatchObject({ roomId: 'room-1', reconnecting: false, userIsDisconnected: false });
    // The partner comes back too; their messages show again.
    c.server.emit(chatEvents.partnerBack, { roomId: 'other-room' });
    c.server.emit(chatEvents.partnerBack, { roomId: 'room-1' });
    await vi.waitFor(() => expect(c.store.getState().chat.partnerAway).toBe(false));
    c.server.emit(chatEvents.partnerAway, { roomId: 'room-1' });
    await vi.waitFor(() => expect(c.store.getState().chat.partnerAway).toBe(true));
  });

  it('a Start pressed while the connection is being made again begins the search, and sends it once connected', async () => {
    const again = c.nextConnection({ ok: false });
    const pressed = whenSocketStatus('reconnecting', () => c.store.dispatch(c.room.startSearch(c.notify)));
    c.server.conn.close();
    await pressed;
    // Not "offline": the page shows the search, and the connection line says it is connecting.
    expect(c.notices).toEqual([]);
    expect(c.store.getState().chat.isSearching).toBe(true);
    c.server = await again;
    c.server.onAny((name: string, payload: unknown) => c.received.push([name, payload]));
    const sent = (await c.nextEvent(chatEvents.start)) as { searchId: string; roomType: string };
    expect(sent.roomType).toBe('textChat');
    // Its answer is taken as the search's own.
    c.server.emit(chatEvents.matched, { ...setup, searchId: sent.searchId });
    await vi.waitFor(() => expect(c.store.getState().chat.roomId).toBe('room-1'));
  });

  it('a Next that could not be sent while reconnecting leaves the search as it was: its requeue still shows', async () => {
    c.store.dispatch(c.room.startSearch(c.notify));
    const { searchId } = (await c.nextEvent(chatEvents.start)) as { searchId: string };
    c.server.emit(chatEvents.matched, { ...setup, searchId });
    await vi.waitFor(() => expect(c.store.getState().chat.roomId).toBe('room-1'));
    const again = c.nextConnection({ ok: true, partnerAway: false });
    const offline = whenSocketStatus('reconnecting', () => c.store.dispatch(c.room.next(c.notify)));
    c.server.conn.close();
    await offline;
    expect(c.notices.at(-1)).toMatchObject({ title: 'You are offline' });
    c.server = await again;
    c.server.onAny((name: string, payload: unknown) => c.received.push([name, payload]));
    await vi.waitFor(() => expect(c.store.getState().chat.reconnecting).toBe(false));
    expect(await c.nextEvent(chatEvents.settings)).toEqual({ automaticReconnect: false });
    // The partner leaves; automatic reconnect puts us back in the queue under the same search.
    c.server.emit(chatEvents.partnerLeft, { roomId: 'room-1', reason: 'skip' });
    c.server.emit(chatEvents.searching, { roomType: 'textChat', requeued: true, searchId });
    await vi.waitFor(() => expect(c.store.getState().chat).toMatchObject({ isSearching: true, isRequeuing: true }));
  });

  it('a connection that drops again before the resume is answered asks again on the next one', async () => {
    await c.matched();
    const first = new Promise<void>((resolve) =>
      c.io.once('connection', (sock: ServerSocket) =>
        sock.on(chatEvents.resume, () => {
          sock.conn.close();
          resolve();
        }),
      ),
    );
    c.server.conn.close();
    await first;
    const second = c.nextConnection({ ok: true, partnerAway: false });
    c.server = await second;
    await vi.waitFor(() => expect(c.store.getState().chat.reconnecting).toBe(false));
    expect(c.store.getState().chat).toMatchObject({ roomId: 'room-1', userIsDisconnected: false });
  });

  it('leaving the page while reconnecting ends the held chat as soon as the connection is back', async () => {
    await c.matched();
    const again = c.nextConnection({ ok: true, partnerAway: false });
    const left = whenSocketStatus('reconnecting', () => c.store.dispatch(c.room.leave({ forget: true })));
    c.server.conn.close();
    await left;
    expect(c.store.getState().chat).toMatchObject({ roomId: null, conversationRoomId: null });
    c.server = await again;
    c.server.onAny((name: string, payload: unknown) => c.received.push([name, payload]));
    expect(await c.nextEvent(chatEvents.resume)).toEqual({ roomId: 'room-1' });
    await c.nextEvent(chatEvents.stop);
  });

  it('a stranger who left while we were away is shown as gone, and automatic reconnect searches again', async () => {
    c.store.dispatch(searchPreferencesActions.setAutomaticReconnect(true));
    await c.matched();
    const again = c.nextConnection({ ok: false, partnerLeft: true });
    c.server.conn.close();
    c.server = await again;
    c.server.onAny((name: string, payload: unknown) => c.received.push([name, payload]));
    await vi.waitFor(() => expect(c.store.getState().chat.isPeerDisconnected).toBe(true));
    expect(c.store.getState().chat).toMatchObject({ roomId: null, reconnecting: false, userIsDisconnected: false, isSearching: true });
    expect(await c.nextEvent(chatEvents.start)).toMatchObject({ roomType: 'textChat', automaticReconnect: true });
  });

  it('after a dropped connection whose chat the server no longer holds: the chat is over, a search resumes by itself', async () => {
    await c.matched();
    const again = c.nextConnection({ ok: false });
    c.server.conn.close();
    c.server = await again;
    await vi.waitFor(() => expect(c.store.getState().chat.userIsDisconnected).toBe(true));
    expect(c.store.getState().chat).toMatchObject({ roomId: null, reconnecting: false });
    c.server.onAny((name: string, payload: unknown) => c.received.push([name, payload]));
    await untilConnected();
    c.store.dispatch(c.room.startSearch(c.notify));
    const { searchId } = (await c.nextEvent(chatEvents.start)) as { searchId: string };
    expect(c.store.getState().chat.userIsDisconnected).toBe(false);

    const third = new Promise<ServerSocket>((resolve) => c.io.once('connection', resolve));
    c.server.conn.close();
    c.server = await third;
    c.server.onAny((name: string, payload: unknown) => c.received.push([name, payload]));
    // The queue entry died with the connection, so the client asks again: the same search, under
    // its own id, so that a match made meanwhile (its `matched` lost) comes back to it.
    expect(await c.nextEvent(chatEvents.start)).toMatchObject({ roomType: 'textChat', searchId });
    expect(c.store.getState().chat.isSearching).toBe(true);
    c.server.emit(chatEvents.matched, { ...setup, searchId });
    await vi.waitFor(() => expect(c.store.getState().chat.roomId).toBe('room-1'));
  });
});
