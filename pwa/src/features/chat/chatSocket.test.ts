import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { configureStore } from '@reduxjs/toolkit';
import { Server, type Socket as ServerSocket } from 'socket.io';
import { chatEvents, type RoomSetup } from '@parley/contract/chat';
import { closeSocket, connectSocket, getSocketStatus, subscribeSocketStatus } from '../../realtime/socket';
import chatReducer, { chatActions } from './chatSlice';
import {
  attachChatSocket,
  changeAutomaticReconnect,
  leaveTextChat,
  nextChat,
  retryMessage,
  sendMessage,
  startSearch,
  stopSearch,
  type ChatNotice,
} from './chatSocket';

// The chat's socket side against a real socket.io server that plays the API's part of the protocol.
let httpServer: http.Server;
let io: Server;
let url: string;
let server: ServerSocket;
let received: Array<[string, unknown]>;
let notices: ChatNotice[];
let detach: () => void;

const makeStore = () => configureStore({ reducer: { chat: chatReducer } });
let store: ReturnType<typeof makeStore>;

const setup: RoomSetup = {
  roomId: 'room-1',
  roomType: 'textChat',
  receiver: { userId: 'u2', username: 'bob', avatar: '', age: 30, gender: 'male', sharedTopics: ['chess'] },
  noCommonTopic: false,
  initiator: false,
};

function connected(): Promise<void> {
  return new Promise((resolve) => {
    if (getSocketStatus() === 'connected') return resolve();
    const off = subscribeSocketStatus(() => {
      if (getSocketStatus() === 'connected') {
        off();
        resolve();
      }
    });
  });
}

async function nextEvent(name: string): Promise<unknown> {
  await vi.waitFor(() => expect(received.some(([n]) => n === name)).toBe(true));
  const i = received.findIndex(([n]) => n === name);
  return received.splice(i, 1)[0]![1];
}

beforeEach(async () => {
  received = [];
  notices = [];
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  httpServer = http.createServer();
  io = new Server(httpServer, { path: '/socket.io' });
  const connectedServer = new Promise<ServerSocket>((resolve) => io.on('connection', resolve));
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}`;
  store = makeStore();
  detach = store.dispatch(attachChatSocket((n) => notices.push(n)));
  connectSocket(
    { token: 't', userId: 'u1', username: 'ada' },
    { url, reconnectionDelay: 20, reconnectionDelayMax: 40, randomizationFactor: 0 },
  );
  server = await connectedServer;
  server.onAny((name: string, payload: unknown) => {
    if (name !== chatEvents.message) received.push([name, payload]);
  });
  await connected();
});

afterEach(async () => {
  detach();
  closeSocket();
  io.close();
  vi.restoreAllMocks();
});

async function matched() {
  store.dispatch(startSearch((n) => notices.push(n)));
  await nextEvent(chatEvents.start);
  server.emit(chatEvents.searching, { roomType: 'textChat', requeued: false });
  server.emit(chatEvents.matched, setup);
  await vi.waitFor(() => expect(store.getState().chat.roomId).toBe('room-1'));
}

describe('text chat over the socket', () => {
  it('starts a search with the saved filters and enters the room the server sets up', async () => {
    store.dispatch(chatActions.setChatFilters({ topics: ['Chess  Club'], gender: 'female', ageRange: { minAge: 20, maxAge: 40 } }));
    store.dispatch(chatActions.setAutomaticReconnect(true));
    store.dispatch(startSearch((n) => notices.push(n)));
    expect(store.getState().chat.isSearching).toBe(true);
    expect(await nextEvent(chatEvents.start)).toEqual({
      roomType: 'textChat',
      filters: { topics: ['chess club'], gender: 'female', ageRange: { minAge: 20, maxAge: 40 } },
      automaticReconnect: true,
      searchId: expect.any(String),
    });
    server.emit(chatEvents.matched, { ...setup, noCommonTopic: true });
    await vi.waitFor(() => expect(store.getState().chat.roomId).toBe('room-1'));
    const chat = store.getState().chat;
    expect(chat).toMatchObject({ isSearching: false, receiver: setup.receiver, noCommonTopic: true, isPeerDisconnected: false });
    expect(chat.encounteredUser).toEqual([setup.receiver]);
  });

  it('ignores a room set up for video chat and malformed payloads', async () => {
    server.emit(chatEvents.matched, { ...setup, roomType: 'videoChat' });
    server.emit(chatEvents.matched, { roomId: 7 });
    await new Promise((r) => setTimeout(r, 50));
    expect(store.getState().chat.roomId).toBeNull();
    expect(console.error).toHaveBeenCalled();
  });

  it('marks a sent message delivered when the server acknowledges delivery', async () => {
    await matched();
    server.on(chatEvents.message, (m: { id: string; text: string }, ack: (a: unknown) => void) =>
      ack({ ok: true, id: m.id, sentAt: 1234, delivered: true }),
    );
    const sending = store.dispatch(sendMessage('hello 👋', (n) => notices.push(n)));
    expect(store.getState().chat.messageState[0]).toMatchObject({ text: 'hello 👋', from: 'me', status: 'sending' });
    expect(await sending).toBe(true);
    expect(store.getState().chat.messageState[0]).toMatchObject({ status: 'delivered', sentAt: 1234 });
  });

  it('marks a message failed and says why when the server refuses it', async () => {
    await matched();
    server.on(chatEvents.message, (_m: unknown, ack: (a: unknown) => void) =>
      ack({ ok: false, message: 'You are sending messages too fast.', code: 'rate_limited' }),
    );
    expect(await store.dispatch(sendMessage('hi', (n) => notices.push(n)))).toBe(false);
    expect(store.getState().chat.messageState[0]!.status).toBe('failed');
    expect(notices).toEqual([{ title: 'Slow down', description: 'You are sending messages too fast.' }]);
  });

  it('refuses an empty message on the client without sending anything', async () => {
    await matched();
    expect(await store.dispatch(sendMessage('   ', (n) => notices.push(n)))).toBe(false);
    expect(store.getState().chat.messageState).toEqual([]);
    expect(notices[0]!.title).toBe('Message not sent');
  });

  it("shows the partner's messages and acknowledges each one (the delivery receipt)", async () => {
    await matched();
    server.emit(chatEvents.typing, { typing: true });
    await vi.waitFor(() => expect(store.getState().chat.partnerTyping).toBe(true));
    const ack = await server.timeout(1000).emitWithAck(chatEvents.message, { id: 'm1', text: 'hey there', sentAt: 99 });
    expect(ack).toEqual({ ok: true, id: 'm1' });
    expect(store.getState().chat.messageState).toEqual([
      { id: 'm1', text: 'hey there', sentAt: 99, from: 'stranger', status: 'delivered' },
    ]);
    expect(store.getState().chat.partnerTyping).toBe(false);
  });

  it('shows that the stranger disconnected and keeps the conversation readable', async () => {
    await matched();
    server.emit(chatEvents.message, { id: 'm1', text: 'bye', sentAt: 1 });
    server.emit(chatEvents.partnerLeft, { roomId: 'other-room', reason: 'skip' });
    server.emit(chatEvents.partnerLeft, { roomId: 'room-1', reason: 'skip' });
    await vi.waitFor(() => expect(store.getState().chat.isPeerDisconnected).toBe(true));
    expect(store.getState().chat.roomId).toBeNull();
    expect(store.getState().chat.messageState).toHaveLength(1);
    // Automatic reconnect: the server puts us back in the queue.
    server.emit(chatEvents.searching, { roomType: 'textChat', requeued: true });
    await vi.waitFor(() => expect(store.getState().chat).toMatchObject({ isSearching: true, isRequeuing: true }));
  });

  it('Next in a room asks the server to skip and waits for the next match', async () => {
    await matched();
    store.dispatch(nextChat((n) => notices.push(n)));
    await nextEvent(chatEvents.next);
    expect(store.getState().chat).toMatchObject({ isSearching: true, roomId: null, receiver: null, messageState: [] });
    expect(received.some(([n]) => n === chatEvents.start)).toBe(false);
  });

  it('stop cancels the search; leaving the page ends the chat', async () => {
    store.dispatch(startSearch((n) => notices.push(n)));
    await nextEvent(chatEvents.start);
    store.dispatch(stopSearch());
    await nextEvent(chatEvents.stop);
    expect(store.getState().chat.isSearching).toBe(false);
    await matched();
    server.emit(chatEvents.message, { id: 'm1', text: 'hi', sentAt: 1 });
    await vi.waitFor(() => expect(store.getState().chat.messageState).toHaveLength(1));
    store.dispatch(leaveTextChat());
    await nextEvent(chatEvents.stop);
    // The user left: coming back shows a clean page, not "Stranger has disconnected".
    expect(store.getState().chat).toMatchObject({
      roomId: null,
      receiver: null,
      messageState: [],
      isPeerDisconnected: false,
      isSearching: false,
    });
  });

  it('ignores a match or a searching state that crossed a Stop on the way', async () => {
    store.dispatch(startSearch((n) => notices.push(n)));
    await nextEvent(chatEvents.start);
    store.dispatch(stopSearch());
    // Sent by the server before it read the Stop (it ends that room when it does).
    server.emit(chatEvents.searching, { roomType: 'textChat', requeued: false });
    server.emit(chatEvents.matched, setup);
    await new Promise((r) => setTimeout(r, 100));
    expect(store.getState().chat).toMatchObject({ roomId: null, isSearching: false, receiver: null });
    // The next Start takes matches again.
    await matched();
  });

  it('after Stop and a new Start within one round trip, only the new search is answered', async () => {
    store.dispatch(startSearch((n) => notices.push(n)));
    const first = ((await nextEvent(chatEvents.start)) as { searchId: string }).searchId;
    store.dispatch(stopSearch());
    store.dispatch(startSearch((n) => notices.push(n)));
    const second = ((await nextEvent(chatEvents.start)) as { searchId: string }).searchId;
    expect(second).not.toBe(first);
    // The first search's match and refusal, sent before the server read the Stop, change nothing.
    server.emit(chatEvents.matched, { ...setup, roomId: 'stale', searchId: first });
    server.emit(chatEvents.error, {
      event: chatEvents.start,
      message: 'Too many searches in a row.',
      code: 'rate_limited',
      searchId: first,
    });
    await vi.waitFor(() => expect(notices).toHaveLength(1));
    expect(store.getState().chat).toMatchObject({ roomId: null, isSearching: true });
    server.emit(chatEvents.matched, { ...setup, searchId: second });
    await vi.waitFor(() => expect(store.getState().chat.roomId).toBe('room-1'));
  });

  it('Next names its search too: a requeue answering the skipped chat does not replace it', async () => {
    await matched();
    store.dispatch(nextChat((n) => notices.push(n)));
    const { searchId } = (await nextEvent(chatEvents.next)) as { searchId: string };
    server.emit(chatEvents.matched, { ...setup, roomId: 'stale', searchId: 'an-older-search' });
    server.emit(chatEvents.matched, { ...setup, roomId: 'room-2', searchId });
    await vi.waitFor(() => expect(store.getState().chat.roomId).toBe('room-2'));
  });

  it('sends the automatic reconnect switch to the server as well as saving it', async () => {
    store.dispatch(changeAutomaticReconnect(true));
    expect(store.getState().chat.automaticReconnect).toBe(true);
    expect(await nextEvent(chatEvents.settings)).toEqual({ automaticReconnect: true });
  });

  it('once reconnection gave up, a Start says so and offers Reconnect', async () => {
    io.close();
    httpServer.closeAllConnections();
    await vi.waitFor(() => expect(getSocketStatus()).toBe('failed'), { timeout: 5000 });
    store.dispatch(startSearch((n) => notices.push(n)));
    expect(notices[0]).toMatchObject({ title: 'You are offline', action: { label: 'Reconnect' } });
    expect(store.getState().chat.isSearching).toBe(false);
  });

  it('turns a server error into a notice and clears a refused search', async () => {
    store.dispatch(startSearch((n) => notices.push(n)));
    await nextEvent(chatEvents.start);
    server.emit(chatEvents.error, {
      event: chatEvents.start,
      message: 'Too many searches in a row. Wait a moment and try again.',
      code: 'rate_limited',
    });
    await vi.waitFor(() => expect(notices).toHaveLength(1));
    expect(notices[0]).toEqual({ title: 'Slow down', description: 'Too many searches in a row. Wait a moment and try again.' });
    expect(store.getState().chat.isSearching).toBe(false);
  });

  /** The next connection, answering `chat:resume` as given. */
  const nextConnection = (answer: unknown) =>
    new Promise<ServerSocket>((resolve) =>
      io.once('connection', (sock: ServerSocket) => {
        sock.on(chatEvents.resume, (payload: unknown, ack: (a: unknown) => void) => {
          received.push([chatEvents.resume, payload]);
          ack(answer);
        });
        resolve(sock);
      }),
    );

  it('after a dropped connection the chat is kept while reconnecting, then taken back from the server', async () => {
    await matched();
    const again = nextConnection({ ok: true, partnerAway: true });
    // The reconnection takes 20 ms here: every state on the way is looked at.
    const states: Array<{ roomId: string | null; reconnecting: boolean; userIsDisconnected: boolean }> = [];
    const unsubscribe = store.subscribe(() => {
      const { roomId, reconnecting, userIsDisconnected } = store.getState().chat;
      states.push({ roomId, reconnecting, userIsDisconnected });
    });
    server.conn.close();
    server = await again;
    expect(await nextEvent(chatEvents.resume)).toEqual({ roomId: 'room-1' });
    await vi.waitFor(() => expect(store.getState().chat.partnerAway).toBe(true));
    unsubscribe();
    expect(states).toContainEqual({ roomId: 'room-1', reconnecting: true, userIsDisconnected: false });
    expect(states.every((x) => x.roomId === 'room-1' && !x.userIsDisconnected)).toBe(true);
    expect(store.getState().chat).toMatchObject({ roomId: 'room-1', reconnecting: false, userIsDisconnected: false });
    // The partner comes back too; their messages show again.
    server.emit(chatEvents.partnerBack, { roomId: 'other-room' });
    server.emit(chatEvents.partnerBack, { roomId: 'room-1' });
    await vi.waitFor(() => expect(store.getState().chat.partnerAway).toBe(false));
    server.emit(chatEvents.partnerAway, { roomId: 'room-1' });
    await vi.waitFor(() => expect(store.getState().chat.partnerAway).toBe(true));
  });

  /** Runs `then` in the same turn as the socket starts reconnecting (the reconnection here takes 20 ms). */
  const whenReconnecting = (then: () => void) =>
    new Promise<void>((resolve) => {
      const off = subscribeSocketStatus(() => {
        if (getSocketStatus() !== 'reconnecting') return;
        off();
        then();
        resolve();
      });
    });

  it('a Next that could not be sent while reconnecting leaves the search as it was: its requeue still shows', async () => {
    store.dispatch(startSearch((n) => notices.push(n)));
    const { searchId } = (await nextEvent(chatEvents.start)) as { searchId: string };
    server.emit(chatEvents.matched, { ...setup, searchId });
    await vi.waitFor(() => expect(store.getState().chat.roomId).toBe('room-1'));
    const again = nextConnection({ ok: true, partnerAway: false });
    const offline = whenReconnecting(() => store.dispatch(nextChat((n) => notices.push(n))));
    server.conn.close();
    await offline;
    expect(notices.at(-1)).toMatchObject({ title: 'You are offline' });
    server = await again;
    server.onAny((name: string, payload: unknown) => received.push([name, payload]));
    await vi.waitFor(() => expect(store.getState().chat.reconnecting).toBe(false));
    expect(await nextEvent(chatEvents.settings)).toEqual({ automaticReconnect: false });
    // The partner leaves; automatic reconnect puts us back in the queue under the same search.
    server.emit(chatEvents.partnerLeft, { roomId: 'room-1', reason: 'skip' });
    server.emit(chatEvents.searching, { roomType: 'textChat', requeued: true, searchId });
    await vi.waitFor(() => expect(store.getState().chat).toMatchObject({ isSearching: true, isRequeuing: true }));
  });

  it('a connection that drops again before the resume is answered asks again on the next one', async () => {
    await matched();
    const first = new Promise<void>((resolve) =>
      io.once('connection', (sock: ServerSocket) =>
        sock.on(chatEvents.resume, () => {
          sock.conn.close();
          resolve();
        }),
      ),
    );
    server.conn.close();
    await first;
    const second = nextConnection({ ok: true, partnerAway: false });
    server = await second;
    await vi.waitFor(() => expect(store.getState().chat.reconnecting).toBe(false));
    expect(store.getState().chat).toMatchObject({ roomId: 'room-1', userIsDisconnected: false });
  });

  it('leaving the page while reconnecting ends the held chat as soon as the connection is back', async () => {
    await matched();
    const again = nextConnection({ ok: true, partnerAway: false });
    const left = whenReconnecting(() => store.dispatch(leaveTextChat()));
    server.conn.close();
    await left;
    expect(store.getState().chat).toMatchObject({ roomId: null, messageState: [] });
    server = await again;
    server.onAny((name: string, payload: unknown) => received.push([name, payload]));
    expect(await nextEvent(chatEvents.resume)).toEqual({ roomId: 'room-1' });
    await nextEvent(chatEvents.stop);
  });

  it('a stranger who left while we were away is shown as gone, and automatic reconnect searches again', async () => {
    store.dispatch(chatActions.setAutomaticReconnect(true));
    await matched();
    const again = nextConnection({ ok: false, partnerLeft: true });
    server.conn.close();
    server = await again;
    server.onAny((name: string, payload: unknown) => received.push([name, payload]));
    await vi.waitFor(() => expect(store.getState().chat.isPeerDisconnected).toBe(true));
    expect(store.getState().chat).toMatchObject({ roomId: null, reconnecting: false, userIsDisconnected: false, isSearching: true });
    expect(await nextEvent(chatEvents.start)).toMatchObject({ roomType: 'textChat', automaticReconnect: true });
  });

  it('a message cut off by the drop is sent again under its own id once the chat resumes, without a toast', async () => {
    await matched();
    // The server never answers this first attempt: the connection drops under it.
    const firstAttempt = new Promise<{ id: string; text: string }>((resolve) => server.on(chatEvents.message, resolve));
    const sending = store.dispatch(sendMessage('are you there?', (n) => notices.push(n)));
    const { id } = await firstAttempt;
    const again = nextConnection({ ok: true, partnerAway: false });
    server.conn.close();
    expect(await sending).toBe(false);
    expect(store.getState().chat.messageState[0]).toMatchObject({ id, status: 'failed', unsent: 'connection' });
    const resent = new Promise<{ id: string; text: string }>((resolve) =>
      io.once('connection', (sock: ServerSocket) =>
        sock.on(chatEvents.message, (m: { id: string; text: string }, ack: (a: unknown) => void) => {
          ack({ ok: true, id: m.id, sentAt: 777, delivered: true });
          resolve(m);
        }),
      ),
    );
    server = await again;
    expect(await resent).toEqual({ id, text: 'are you there?' });
    await vi.waitFor(() => expect(store.getState().chat.messageState[0]).toMatchObject({ id, status: 'delivered', sentAt: 777 }));
    expect(store.getState().chat.messageState[0]).not.toHaveProperty('unsent');
    expect(store.getState().chat.messageState).toHaveLength(1);
    expect(notices).toEqual([]);
  });

  it('a message sent before the resume is answered waits behind the one cut off by the drop', async () => {
    await matched();
    const firstAttempt = new Promise<void>((resolve) => server.on(chatEvents.message, () => resolve()));
    const cut = store.dispatch(sendMessage('A', (n) => notices.push(n)));
    await firstAttempt;
    let answerResume: (() => void) | undefined;
    const sent: string[] = [];
    const again = new Promise<ServerSocket>((resolve) =>
      io.once('connection', (sock: ServerSocket) => {
        sock.on(chatEvents.resume, (_p: unknown, ack: (a: unknown) => void) => {
          answerResume = () => ack({ ok: true, partnerAway: false });
        });
        sock.on(chatEvents.message, (m: { id: string; text: string }, ack: (a: unknown) => void) => {
          sent.push(m.text);
          ack({ ok: true, id: m.id, sentAt: 1, delivered: true });
        });
        resolve(sock);
      }),
    );
    server.conn.close();
    await cut;
    server = await again;
    await connected();
    await vi.waitFor(() => expect(answerResume).toBeDefined());
    // Connected, the chat not yet given back: B waits.
    expect(store.getState().chat.reconnecting).toBe(true);
    expect(await store.dispatch(sendMessage('B', (n) => notices.push(n)))).toBe(true);
    expect(store.getState().chat.messageState.map((m) => [m.text, m.status])).toEqual([
      ['A', 'failed'],
      ['B', 'failed'],
    ]);
    await new Promise((r) => setTimeout(r, 50));
    expect(sent).toEqual([]);
    answerResume!();
    await vi.waitFor(() => expect(store.getState().chat.messageState.map((m) => m.status)).toEqual(['delivered', 'delivered']));
    expect(sent).toEqual(['A', 'B']);
  });

  it('messages the stranger could not get while away go once they are back, in order; one cut off by a chat that ended stays not sent', async () => {
    await matched();
    let partnerHere = false;
    const attempts: string[] = [];
    server.on(chatEvents.message, (m: { id: string; text: string }, ack: (a: unknown) => void) => {
      attempts.push(m.text);
      if (!partnerHere)
        ack({ ok: false, message: 'Stranger lost their connection. Wait a moment for them to come back.', code: 'partner_away' });
      else ack({ ok: true, id: m.id, sentAt: 5, delivered: true });
    });
    // Sent before the page knew: the server refuses it; the page then learns the stranger is away.
    expect(await store.dispatch(sendMessage('first', (n) => notices.push(n)))).toBe(false);
    expect(store.getState().chat.messageState[0]).toMatchObject({ status: 'failed', unsent: 'connection' });
    server.emit(chatEvents.partnerAway, { roomId: 'room-1' });
    await vi.waitFor(() => expect(store.getState().chat.partnerAway).toBe(true));
    // Sent knowing it: it waits on the page, behind the first.
    expect(await store.dispatch(sendMessage('second', (n) => notices.push(n)))).toBe(true);
    expect(store.getState().chat.messageState[1]).toMatchObject({ text: 'second', status: 'failed', unsent: 'connection' });
    expect(attempts).toEqual(['first']);
    expect(notices).toEqual([]);
    partnerHere = true;
    server.emit(chatEvents.partnerBack, { roomId: 'room-1' });
    await vi.waitFor(() => expect(store.getState().chat.messageState.map((m) => m.status)).toEqual(['delivered', 'delivered']));
    expect(attempts).toEqual(['first', 'first', 'second']);

    server.emit(chatEvents.partnerAway, { roomId: 'room-1' });
    await vi.waitFor(() => expect(store.getState().chat.partnerAway).toBe(true));
    await store.dispatch(sendMessage('still there?', (n) => notices.push(n)));
    server.emit(chatEvents.partnerLeft, { roomId: 'room-1', reason: 'disconnected' });
    await vi.waitFor(() => expect(store.getState().chat.isPeerDisconnected).toBe(true));
    expect(store.getState().chat.messageState[2]).toMatchObject({ text: 'still there?', status: 'failed' });
    expect(store.getState().chat.messageState[2]).not.toHaveProperty('unsent');
  });

  it('a backlog larger than the message allowance goes in rounds, in order, without "Slow down"', async () => {
    await matched();
    // The server's allowance: a bucket of 12 that refills at 10 a second; the stranger is away at first.
    let partnerHere = false;
    let tokens = 12;
    const refill = setInterval(() => (tokens = Math.min(12, tokens + 1)), 100);
    const delivered: string[] = [];
    const refusedForRate: string[] = [];
    server.on(chatEvents.message, (m: { id: string; text: string }, ack: (a: unknown) => void) => {
      if (!partnerHere) return ack({ ok: false, message: 'Stranger lost their connection.', code: 'partner_away' });
      if (tokens < 1) {
        refusedForRate.push(m.text);
        return ack({ ok: false, message: 'You are sending messages too fast.', code: 'rate_limited' });
      }
      tokens--;
      if (!delivered.includes(m.text)) delivered.push(m.text);
      ack({ ok: true, id: m.id, sentAt: 5, delivered: true });
    });
    const texts = Array.from({ length: 25 }, (_, i) => `m${String(i).padStart(2, '0')}`);
    await store.dispatch(sendMessage(texts[0]!, (n) => notices.push(n)));
    server.emit(chatEvents.partnerAway, { roomId: 'room-1' });
    await vi.waitFor(() => expect(store.getState().chat.partnerAway).toBe(true));
    for (const t of texts.slice(1)) await store.dispatch(sendMessage(t, (n) => notices.push(n)));
    expect(store.getState().chat.messageState.every((m) => m.unsent === 'connection')).toBe(true);

    partnerHere = true;
    server.emit(chatEvents.partnerBack, { roomId: 'room-1' });
    // One more typed while the backlog drains goes behind it.
    await vi.waitFor(() => expect(delivered.length).toBeGreaterThanOrEqual(10));
    expect(delivered.length).toBeLessThan(25);
    await store.dispatch(sendMessage('typed meanwhile', (n) => notices.push(n)));
    await vi.waitFor(() => expect(store.getState().chat.messageState.every((m) => m.status === 'delivered')).toBe(true), { timeout: 5000 });
    clearInterval(refill);
    expect(delivered).toEqual([...texts, 'typed meanwhile']);
    expect(refusedForRate).toEqual([]);
    expect(notices).toEqual([]);
  });

  it('a message the server took but the stranger never acknowledged (their connection had died unnoticed) goes again when they are back', async () => {
    await matched();
    const attempts: string[] = [];
    server.on(chatEvents.message, (m: { id: string }, ack: (a: unknown) => void) => {
      attempts.push(m.id);
      ack({ ok: true, id: m.id, sentAt: 5, delivered: attempts.length > 1 });
    });
    await store.dispatch(sendMessage('hi?', (n) => notices.push(n)));
    expect(store.getState().chat.messageState[0]!.status).toBe('sent');
    // A new message does not send it again: only the stranger coming back does.
    await store.dispatch(sendMessage('hello?', (n) => notices.push(n)));
    expect(attempts).toHaveLength(2);
    server.emit(chatEvents.partnerAway, { roomId: 'room-1' });
    server.emit(chatEvents.partnerBack, { roomId: 'room-1' });
    await vi.waitFor(() => expect(store.getState().chat.messageState[0]!.status).toBe('delivered'));
    expect(attempts).toEqual([attempts[0], attempts[1], attempts[0]]);
  });

  it('Retry sends a message that was not sent again under the same id; the stale answer of an older attempt changes nothing', async () => {
    await matched();
    const answers: Array<(a: unknown) => void> = [];
    const ids: string[] = [];
    server.on(chatEvents.message, (m: { id: string }, ack: (a: unknown) => void) => {
      ids.push(m.id);
      answers.push(ack);
    });
    const first = store.dispatch(sendMessage('hello', (n) => notices.push(n)));
    await vi.waitFor(() => expect(answers).toHaveLength(1));
    answers[0]!({ ok: false, message: 'You are sending messages too fast.', code: 'rate_limited' });
    expect(await first).toBe(false);
    const id = store.getState().chat.messageState[0]!.id;
    expect(store.getState().chat.messageState[0]).toMatchObject({ status: 'failed' });
    // Only a failed message of ours can be retried.
    expect(await store.dispatch(retryMessage('no-such-id', (n) => notices.push(n)))).toBe(false);
    const retry = store.dispatch(retryMessage(id, (n) => notices.push(n)));
    expect(store.getState().chat.messageState[0]!.status).toBe('sending');
    await vi.waitFor(() => expect(answers).toHaveLength(2));
    expect(ids).toEqual([id, id]);
    answers[1]!({ ok: true, id, sentAt: 42, delivered: true });
    expect(await retry).toBe(true);
    expect(store.getState().chat.messageState).toEqual([expect.objectContaining({ id, text: 'hello', status: 'delivered', sentAt: 42 })]);
    expect(await store.dispatch(retryMessage(id, (n) => notices.push(n)))).toBe(false);
  });

  it('a message the conversation already shows is acknowledged again but not shown twice', async () => {
    await matched();
    const message = { id: 'm1', text: 'hello again', sentAt: 5 };
    expect(await server.timeout(1000).emitWithAck(chatEvents.message, message)).toEqual({ ok: true, id: 'm1' });
    expect(await server.timeout(1000).emitWithAck(chatEvents.message, message)).toEqual({ ok: true, id: 'm1' });
    expect(store.getState().chat.messageState).toHaveLength(1);
  });

  it('after a dropped connection whose chat the server no longer holds: the chat is over, a search resumes by itself', async () => {
    await matched();
    const again = nextConnection({ ok: false });
    server.conn.close();
    server = await again;
    await vi.waitFor(() => expect(store.getState().chat.userIsDisconnected).toBe(true));
    expect(store.getState().chat).toMatchObject({ roomId: null, reconnecting: false });
    server.onAny((name: string, payload: unknown) => received.push([name, payload]));
    await connected();
    store.dispatch(startSearch((n) => notices.push(n)));
    const { searchId } = (await nextEvent(chatEvents.start)) as { searchId: string };
    expect(store.getState().chat.userIsDisconnected).toBe(false);

    const third = new Promise<ServerSocket>((resolve) => io.once('connection', resolve));
    server.conn.close();
    server = await third;
    server.onAny((name: string, payload: unknown) => received.push([name, payload]));
    // The queue entry died with the connection, so the client asks again: the same search, under
    // its own id, so that a match made meanwhile (its `matched` lost) comes back to it.
    expect(await nextEvent(chatEvents.start)).toMatchObject({ roomType: 'textChat', searchId });
    expect(store.getState().chat.isSearching).toBe(true);
    server.emit(chatEvents.matched, { ...setup, searchId });
    await vi.waitFor(() => expect(store.getState().chat.roomId).toBe('room-1'));
  });
});
