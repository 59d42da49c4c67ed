import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { combineReducers, configureStore, createSlice } from '@reduxjs/toolkit';
import { Server, type Socket as ServerSocket } from 'socket.io';
import { chatEvents, type RoomSetup } from '@parley/contract/chat';
import { rtcEvents } from '@parley/contract/rtc';
import { closeSocket, connectSocket, getSocketStatus, subscribeSocketStatus } from '../../realtime/socket';
import videoChatReducer from './videoChatSlice';
import {
  attachVideoChatSocket,
  nextVideoChat,
  retryVideoMessage,
  sendVideoMessage,
  startVideoSearch,
  stopVideoChat,
  videoCallFailed,
  REDIAL_DELAYS_MS,
  type Notice,
} from './videoChatSocket';

// The video chat's socket side against a real socket.io server that plays the API's part.
let httpServer: http.Server;
let io: Server;
let server: ServerSocket;
let received: string[];
let notices: Notice[];
let detach: () => void;

const filters = createSlice({
  name: 'chat',
  initialState: { chatFilters: { topics: [], gender: 'All' as const, ageRange: { minAge: 18, maxAge: 99 } }, automaticReconnect: false },
  reducers: {},
});
const makeStore = () => configureStore({ reducer: combineReducers({ videoChat: videoChatReducer, chat: filters.reducer }) });
let store: ReturnType<typeof makeStore>;
const notify = (n: Notice) => notices.push(n);

const setup: RoomSetup = {
  roomId: 'room-1',
  roomType: 'videoChat',
  receiver: { userId: 'u2', username: 'bob', avatar: '', age: 30, gender: 'male', sharedTopics: [] },
  noCommonTopic: false,
  initiator: true,
};

beforeEach(async () => {
  received = [];
  notices = [];
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  httpServer = http.createServer();
  io = new Server(httpServer, { path: '/socket.io' });
  const connectedServer = new Promise<ServerSocket>((resolve) => io.on('connection', resolve));
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  store = makeStore();
  detach = store.dispatch(attachVideoChatSocket(notify));
  connectSocket(
    { token: 't', userId: 'u1', username: 'ada' },
    {
      url: `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}`,
      reconnectionDelay: 20,
      reconnectionDelayMax: 40,
      randomizationFactor: 0,
    },
  );
  server = await connectedServer;
  server.onAny((name: string) => received.push(name));
  await vi.waitFor(() => expect(getSocketStatus()).toBe('connected'));
});

afterEach(() => {
  detach();
  closeSocket();
  io.close();
  vi.restoreAllMocks();
});

describe('video chat over the socket', () => {
  it('Next in a call asks the server to skip only (no second start that could end the next room)', async () => {
    store.dispatch(startVideoSearch(notify));
    await vi.waitFor(() => expect(received).toContain(chatEvents.start));
    server.emit(chatEvents.matched, setup);
    await vi.waitFor(() => expect(store.getState().videoChat.roomId).toBe('room-1'));
    received.length = 0;

    store.dispatch(nextVideoChat(notify));
    await vi.waitFor(() => expect(received).toContain(chatEvents.next));
    await new Promise((r) => setTimeout(r, 50));
    expect(received).toEqual([chatEvents.next]);
    expect(store.getState().videoChat).toMatchObject({ phase: 'searching', roomId: null, receiver: null });
  });

  it('Next after the partner left starts a new search', async () => {
    store.dispatch(startVideoSearch(notify));
    await vi.waitFor(() => expect(received).toContain(chatEvents.start));
    server.emit(chatEvents.matched, setup);
    server.emit(chatEvents.partnerLeft, { roomId: 'room-1', reason: 'skip' });
    await vi.waitFor(() => expect(store.getState().videoChat.phase).toBe('ended'));
    received.length = 0;

    store.dispatch(nextVideoChat(notify));
    await vi.waitFor(() => expect(received).toEqual([chatEvents.start]));
    expect(store.getState().videoChat.phase).toBe('searching');
  });

  it('ignores a match that crossed the Stop on the way (no call to a partner the server let go)', async () => {
    store.dispatch(startVideoSearch(notify));
    await vi.waitFor(() => expect(received).toContain(chatEvents.start));
    store.dispatch(stopVideoChat());
    server.emit(chatEvents.searching, { roomType: 'videoChat', requeued: false });
    server.emit(chatEvents.matched, setup);
    await new Promise((r) => setTimeout(r, 100));
    expect(store.getState().videoChat).toMatchObject({ phase: 'idle', roomId: null });
  });

  it("Retry sends a refused message again under its own id; the stranger's copy of an id shows once", async () => {
    store.dispatch(startVideoSearch(notify));
    await vi.waitFor(() => expect(received).toContain(chatEvents.start));
    server.emit(chatEvents.matched, setup);
    await vi.waitFor(() => expect(store.getState().videoChat.roomId).toBe('room-1'));
    const ids: string[] = [];
    server.on(chatEvents.message, (m: { id: string }, ack: (a: unknown) => void) => {
      ids.push(m.id);
      if (ids.length === 1) ack({ ok: false, message: 'You are sending messages too fast.', code: 'rate_limited' });
      else ack({ ok: true, id: m.id, sentAt: 9, delivered: true });
    });
    expect(await store.dispatch(sendVideoMessage('hi there', notify))).toBe(false);
    const id = store.getState().videoChat.messages[0]!.id;
    expect(store.getState().videoChat.messages[0]!.status).toBe('failed');
    expect(await store.dispatch(retryVideoMessage(id, notify))).toBe(true);
    expect(ids).toEqual([id, id]);
    expect(store.getState().videoChat.messages).toEqual([expect.objectContaining({ id, status: 'delivered', sentAt: 9 })]);
    expect(await store.dispatch(retryVideoMessage(id, notify))).toBe(false);

    const message = { id: 's1', text: 'hello', sentAt: 1 };
    await server.timeout(1000).emitWithAck(chatEvents.message, message);
    await server.timeout(1000).emitWithAck(chatEvents.message, message);
    expect(store.getState().videoChat.messages.filter((m) => m.from === 'stranger')).toHaveLength(1);
  });

  /** Matched in a video room, the call being set up. */
  async function inRoom() {
    store.dispatch(startVideoSearch(notify));
    await vi.waitFor(() => expect(received).toContain(chatEvents.start));
    server.emit(chatEvents.matched, setup);
    await vi.waitFor(() => expect(store.getState().videoChat.roomId).toBe('room-1'));
  }

  /** The next connection, answering `chat:resume` as given and acknowledging messages. */
  const nextConnection = (answer: unknown, sent: string[] = []) =>
    new Promise<ServerSocket>((resolve) =>
      io.once('connection', (sock: ServerSocket) => {
        sock.on(chatEvents.resume, (_p: unknown, ack: (a: unknown) => void) => ack(answer));
        sock.on(chatEvents.message, (m: { id: string; text: string }, ack: (a: unknown) => void) => {
          sent.push(m.text);
          ack({ ok: true, id: m.id, sentAt: 3, delivered: true });
        });
        resolve(sock);
      }),
    );

  it('a dropped connection keeps the room (the call goes on) and takes it back; what was cut off goes again', async () => {
    await inRoom();
    const firstAttempt = new Promise<void>((resolve) => server.on(chatEvents.message, () => resolve()));
    const cut = store.dispatch(sendVideoMessage('still there?', notify));
    await firstAttempt;
    const sent: string[] = [];
    const again = nextConnection({ ok: true, partnerAway: false }, sent);
    server.conn.close();
    expect(await cut).toBe(false);
    expect(store.getState().videoChat).toMatchObject({
      phase: 'connecting',
      roomId: 'room-1',
      reconnecting: true,
      userIsDisconnected: false,
    });
    // Typed while reconnecting: it waits behind the one cut off.
    expect(await store.dispatch(sendVideoMessage('hello?', notify))).toBe(true);
    server = await again;
    await vi.waitFor(() => expect(store.getState().videoChat.reconnecting).toBe(false));
    await vi.waitFor(() => expect(store.getState().videoChat.messages.map((m) => m.status)).toEqual(['delivered', 'delivered']));
    expect(sent).toEqual(['still there?', 'hello?']);
    expect(store.getState().videoChat).toMatchObject({ phase: 'connecting', roomId: 'room-1', userIsDisconnected: false });
    expect(notices).toEqual([]);
    // The partner's connection drops and comes back too.
    server.emit(chatEvents.partnerAway, { roomId: 'room-1' });
    await vi.waitFor(() => expect(store.getState().videoChat.partnerAway).toBe(true));
    server.emit(chatEvents.partnerBack, { roomId: 'room-1' });
    await vi.waitFor(() => expect(store.getState().videoChat.partnerAway).toBe(false));
  });

  it('after a drop whose room the server no longer holds, or whose stranger left meanwhile, the room is over', async () => {
    await inRoom();
    const again = nextConnection({ ok: false });
    server.conn.close();
    server = await again;
    await vi.waitFor(() =>
      expect(store.getState().videoChat).toMatchObject({ phase: 'ended', userIsDisconnected: true, reconnecting: false }),
    );

    await vi.waitFor(() => expect(getSocketStatus()).toBe('connected'));
    server.onAny((name: string) => received.push(name));
    received = [];
    await inRoom();
    const third = nextConnection({ ok: false, partnerLeft: true });
    server.conn.close();
    server = await third;
    await vi.waitFor(() =>
      expect(store.getState().videoChat).toMatchObject({ phase: 'ended', isPeerDisconnected: true, reconnecting: false }),
    );
  });

  it('a failed call is placed again: asked for after a short wait, once the stranger is back, and never for a missing camera', async () => {
    await inRoom();
    const asks: unknown[] = [];
    server.on(rtcEvents.redial, (p: unknown) => asks.push(p));
    store.dispatch(videoCallFailed({ roomId: 'room-1', attempt: 0, problem: 'No camera.', redial: false }));
    await new Promise((r) => setTimeout(r, 50));
    expect(asks).toEqual([]);

    server.emit(chatEvents.partnerAway, { roomId: 'room-1' });
    await vi.waitFor(() => expect(store.getState().videoChat.partnerAway).toBe(true));
    store.dispatch(videoCallFailed({ roomId: 'room-1', attempt: 0, problem: 'Lost connection to server.', redial: true }));
    expect(store.getState().videoChat).toMatchObject({ callRedialing: true, callProblem: 'Lost connection to server.' });
    await new Promise((r) => setTimeout(r, 50));
    expect(asks).toEqual([]);
    server.emit(chatEvents.partnerBack, { roomId: 'room-1' });
    // After a short wait (REDIAL_DELAYS_MS), so that a briefly unreachable signalling server does not use up the attempts.
    await new Promise((r) => setTimeout(r, REDIAL_DELAYS_MS[0] / 2));
    expect(asks).toEqual([]);
    await vi.waitFor(() => expect(asks).toEqual([{ roomId: 'room-1', attempt: 0 }]), { timeout: REDIAL_DELAYS_MS[0] + 1000 });

    server.emit(rtcEvents.redial, { roomId: 'room-1', attempt: 1 });
    await vi.waitFor(() =>
      expect(store.getState().videoChat).toMatchObject({ callAttempt: 1, callRedialing: false, callProblem: null, phase: 'connecting' }),
    );
    // A malformed answer is not applied.
    server.emit(rtcEvents.redial, { roomId: 'room-1', attempt: 'x' });
    await new Promise((r) => setTimeout(r, 50));
    expect(store.getState().videoChat.callAttempt).toBe(1);
  });

  it('a refused redial leaves the problem on screen without a toast', async () => {
    await inRoom();
    server.on(rtcEvents.redial, () =>
      server.emit(chatEvents.error, {
        event: rtcEvents.redial,
        code: 'call_attempts_exhausted',
        message: 'The video call could not be set up.',
      }),
    );
    store.dispatch(videoCallFailed({ roomId: 'room-1', attempt: 0, problem: 'Your partner could not be reached.', redial: true }));
    await vi.waitFor(
      () => expect(store.getState().videoChat).toMatchObject({ callRedialing: false, callProblem: 'Your partner could not be reached.' }),
      {
        timeout: REDIAL_DELAYS_MS[0] + 1000,
      },
    );
    expect(notices).toEqual([]);
  });

  it('a call that failed during a drop is asked for again once the room is taken back', async () => {
    await inRoom();
    let answerResume!: () => void;
    const resumeAnswered = new Promise<void>((resolve) => (answerResume = resolve));
    const asks: unknown[] = [];
    const again = new Promise<ServerSocket>((resolve) =>
      io.once('connection', (sock: ServerSocket) => {
        sock.on(rtcEvents.redial, (p: unknown) => asks.push(p));
        sock.on(
          chatEvents.resume,
          (_p: unknown, ack: (a: unknown) => void) => void resumeAnswered.then(() => ack({ ok: true, partnerAway: false })),
        );
        resolve(sock);
      }),
    );
    server.conn.close();
    server = await again;
    expect(store.getState().videoChat.reconnecting).toBe(true);
    store.dispatch(videoCallFailed({ roomId: 'room-1', attempt: 0, problem: 'Lost connection to server.', redial: true }));
    await new Promise((r) => setTimeout(r, 50));
    expect(asks).toEqual([]);
    answerResume();
    await vi.waitFor(() => expect(asks).toEqual([{ roomId: 'room-1', attempt: 0 }]), { timeout: REDIAL_DELAYS_MS[0] + 1000 });
  });

  it('a search cut by a drop is sent again under its own id, so a room matched meanwhile comes back', async () => {
    const starts: Array<{ searchId: string }> = [];
    server.on(chatEvents.start, (p: { searchId: string }) => starts.push(p));
    store.dispatch(startVideoSearch(notify));
    await vi.waitFor(() => expect(starts).toHaveLength(1));
    let resent!: Promise<{ searchId: string }>;
    const again = new Promise<ServerSocket>((resolve) =>
      io.once('connection', (sock: ServerSocket) => {
        resent = new Promise((r) => sock.once(chatEvents.start, r));
        resolve(sock);
      }),
    );
    server.conn.close();
    server = await again;
    const { searchId } = await resent;
    expect(searchId).toBe(starts[0]!.searchId);
    server.emit(chatEvents.matched, { ...setup, searchId, callAttempt: 1 });
    await vi.waitFor(() => expect(store.getState().videoChat).toMatchObject({ roomId: 'room-1', callAttempt: 1, phase: 'connecting' }));
  });

  it('a room taken back after a drop follows the attempt its call was placed again under meanwhile', async () => {
    await inRoom();
    const again = nextConnection({ ok: true, partnerAway: false, callAttempt: 1 });
    server.conn.close();
    server = await again;
    await vi.waitFor(() => expect(store.getState().videoChat).toMatchObject({ reconnecting: false, callAttempt: 1, phase: 'connecting' }));
  });

  it('a search stopped while the connection is down ends, once back, a room the server held for it', async () => {
    store.dispatch(startVideoSearch(notify));
    await vi.waitFor(() => expect(received).toContain(chatEvents.start));
    const stops: unknown[] = [];
    const again = new Promise<ServerSocket>((resolve) =>
      io.once('connection', (sock: ServerSocket) => {
        sock.on(chatEvents.stop, () => stops.push(true));
        resolve(sock);
      }),
    );
    // Stop pressed the moment the connection is seen gone (the reconnection here takes 20 ms).
    let stoppedOffline = false;
    const off = subscribeSocketStatus(() => {
      if (getSocketStatus() !== 'reconnecting' || stoppedOffline) return;
      stoppedOffline = true;
      store.dispatch(stopVideoChat());
    });
    server.conn.close();
    server = await again;
    off();
    expect(stoppedOffline).toBe(true);
    expect(store.getState().videoChat.phase).toBe('idle');
    await vi.waitFor(() => expect(stops).toHaveLength(1));
  });
});
