import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Server, type Socket as ServerSocket } from 'socket.io';
import { presenceEvents, type OnlineUsersPage } from '@parley/contract/presence';
import { chatEvents } from '@parley/contract/matchmaking';
import { authEvents } from '@parley/contract/auth';
import {
  connectionEvents,
  isSupportedProtocol,
  PROTOCOL_OUTDATED,
  PROTOCOL_OUTDATED_MESSAGE,
  REALTIME_PROTOCOL,
} from '@parley/contract/protocol';
import {
  closeSocket,
  connectSocket,
  emitSocket,
  emitSocketWithAck,
  getOnlinePresence,
  loadMoreOnlineUsers,
  getSocketFailure,
  getSocketStatus,
  offlineNotice,
  onSocketEvent,
  reconnectSocket,
  subscribeSocketStatus,
} from './socket';
import { i18n } from '@lingui/core';

// The messages in English: the interface language the tests read.
i18n.loadAndActivate({ locale: 'en', messages: {} });

// A real socket.io server standing in for the API: it checks the handshake the way the API does.
type Handshake = { token: unknown; protocol: unknown; userId: unknown; username: unknown };
let httpServer: http.Server;
let io: Server;
let url: string;
let handshakes: Handshake[];
let serverSockets: ServerSocket[];
let acceptedTokens: Set<string>;
/** The server's check of the protocol version; a test swaps it for a server newer than this build. */
let protocolOk: (protocol: unknown) => boolean;
const fast = { reconnectionDelay: 20, reconnectionDelayMax: 40, randomizationFactor: 0 };

async function listen(port = 0) {
  httpServer = http.createServer();
  io = new Server(httpServer, { path: '/socket.io' });
  io.use((socket, next) => {
    const auth = socket.handshake.auth as { token?: unknown; protocol?: unknown };
    const { userId, username } = socket.handshake.query;
    handshakes.push({ token: auth.token, protocol: auth.protocol, userId, username });
    if (!protocolOk(auth.protocol)) next(Object.assign(new Error(PROTOCOL_OUTDATED_MESSAGE), { data: { code: PROTOCOL_OUTDATED } }));
    else if (typeof auth.token === 'string' && acceptedTokens.has(auth.token)) next();
    else next(new Error('Unauthorized'));
  });
  io.on('connection', (s) => {
    serverSockets.push(s);
    const first: OnlineUsersPage = { count: 120, users: [{ userId: 'u1', username: 'ada', avatar: '' }], cursor: 'u1' };
    s.emit(presenceEvents.onlineUsers, first);
    s.on('echo', (payload: unknown, ack: (a: unknown) => void) => ack({ got: payload }));
  });
  await new Promise<void>((resolve) => httpServer.listen(port, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}`;
}

async function shutdown() {
  io.disconnectSockets(true);
  io.close();
  await new Promise((r) => setTimeout(r, 20));
}

function untilStatus(wanted: string, timeoutMs = 5000): Promise<void> {
  if (getSocketStatus() === wanted) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      off();
      reject(new Error(`status stayed ${getSocketStatus()}, wanted ${wanted}`));
    }, timeoutMs);
    const off = subscribeSocketStatus(() => {
      if (getSocketStatus() !== wanted) return;
      clearTimeout(timer);
      off();
      resolve();
    });
  });
}

const ada = (token = 'tok-1') => ({ token, userId: 'u1', username: 'ada' });

beforeEach(async () => {
  handshakes = [];
  serverSockets = [];
  acceptedTokens = new Set(['tok-1', 'tok-2']);
  protocolOk = isSupportedProtocol;
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  await listen();
});

afterEach(async () => {
  closeSocket();
  vi.restoreAllMocks();
  await shutdown();
});

describe('the realtime connection', () => {
  it('hands the server the access token and the spec query, then receives the count and the first page', async () => {
    connectSocket(ada(), { url, ...fast });
    await untilStatus('connected');
    expect(handshakes).toEqual([{ token: 'tok-1', protocol: REALTIME_PROTOCOL, userId: 'u1', username: 'ada' }]);
    await vi.waitFor(() => expect(getOnlinePresence().count).toBe(120));
    expect(getOnlinePresence().users).toEqual([{ userId: 'u1', username: 'ada', avatar: '' }]);
    // Then only the changes, and always the count.
    serverSockets[0]!.emit(presenceEvents.onlineUsersDelta, {
      added: [{ userId: 'u2', username: 'bob', avatar: '' }],
      removed: ['u1'],
      count: 119,
    });
    await vi.waitFor(() => expect(getOnlinePresence().users).toEqual([{ userId: 'u2', username: 'bob', avatar: '' }]));
    expect(getOnlinePresence().count).toBe(119);
  });

  it('asks for the next page with the cursor, once at a time, and adds it to what it holds', async () => {
    const asked: unknown[] = [];
    io.on('connection', (s) =>
      s.on(presenceEvents.more, (p: { cursor: string }) => {
        asked.push(p);
        if (asked.length === 1) s.emit(chatEvents.error, { event: presenceEvents.more, message: 'Too many', code: 'rate_limited' });
        else s.emit(presenceEvents.onlineUsersPage, { count: 121, users: [{ userId: 'u3', username: 'cy', avatar: '' }], cursor: null });
      }),
    );
    connectSocket(ada(), { url, ...fast });
    await vi.waitFor(() => expect(getOnlinePresence().cursor).toBe('u1'));
    expect(loadMoreOnlineUsers()).toBe(true);
    expect(loadMoreOnlineUsers()).toBe(false); // one on its way
    await vi.waitFor(() => expect(asked).toHaveLength(1));
    // Refused: it may ask again.
    await vi.waitFor(() => expect(loadMoreOnlineUsers()).toBe(true));
    await vi.waitFor(() => expect(getOnlinePresence().cursor).toBeNull());
    expect(asked).toEqual([{ cursor: 'u1' }, { cursor: 'u1' }]);
    expect(getOnlinePresence()).toEqual({
      count: 121,
      users: [
        { userId: 'u1', username: 'ada', avatar: '' },
        { userId: 'u3', username: 'cy', avatar: '' },
      ],
      cursor: null,
    });
    // The end of the list: nothing more to ask.
    expect(loadMoreOnlineUsers()).toBe(false);
  });

  it('takes a refreshed token without dropping the connection, and uses it on the next reconnect', async () => {
    connectSocket(ada(), { url, ...fast });
    await untilStatus('connected');
    connectSocket(ada('tok-2'), { url, ...fast });
    await new Promise((r) => setTimeout(r, 50));
    expect(getSocketStatus()).toBe('connected');
    expect(handshakes).toHaveLength(1);
    // The network drops (not a deliberate disconnect): socket.io reconnects with the fresh token.
    serverSockets[0]!.conn.close();
    await untilStatus('reconnecting');
    await untilStatus('connected');
    expect(handshakes.map((h) => h.token)).toEqual(['tok-1', 'tok-2']);
  });

  it('opens a new connection when another user signs in', async () => {
    connectSocket(ada(), { url, ...fast });
    await untilStatus('connected');
    connectSocket({ token: 'tok-2', userId: 'u2', username: 'bob' }, { url, ...fast });
    await untilStatus('connected');
    await vi.waitFor(() => expect(serverSockets[0]!.connected).toBe(false));
    expect(handshakes.map((h) => h.userId)).toEqual(['u1', 'u2']);
  });

  it('closes on request (sign-out, page unload) so the server sees the user leave at once', async () => {
    connectSocket(ada(), { url, ...fast });
    await untilStatus('connected');
    const left = new Promise<string>((resolve) => serverSockets[0]!.on('disconnect', resolve));
    closeSocket();
    expect(getSocketStatus()).toBe('closed');
    expect(await left).toBe('client namespace disconnect');
    expect(getOnlinePresence()).toEqual({ count: 0, users: [], cursor: null });
  });

  it('reports a deliberate server disconnect as an ended session', async () => {
    connectSocket(ada(), { url, ...fast });
    await untilStatus('connected');
    serverSockets[0]!.disconnect(true);
    await untilStatus('ended');
  });

  it('follows a restart notice: drops its connection as a lost one within the window and reconnects at once, without the backoff', async () => {
    const reasons: string[] = [];
    io.on('connection', (s) => s.on('disconnect', (reason) => reasons.push(reason)));
    // The usual backoff (a second and more) would show here: the move must not wait for it.
    connectSocket(ada(), { url, reconnectionDelay: 3000, reconnectionDelayMax: 5000, randomizationFactor: 0 });
    await untilStatus('connected');
    const statuses: string[] = [];
    const off = subscribeSocketStatus(() => statuses.push(getSocketStatus()));
    const told = Date.now();
    serverSockets[0]!.emit(connectionEvents.restarting, { reconnectWithinMs: 200 });
    await vi.waitFor(() => expect(serverSockets).toHaveLength(2), { timeout: 2000 });
    await untilStatus('connected');
    off();
    expect(Date.now() - told).toBeLessThan(1500);
    expect(statuses).toEqual(['reconnecting', 'connected']);
    // The server saw a dropped connection (its chat is held for this page), not a page that left.
    expect(reasons).toEqual(['transport close']);
    expect(handshakes).toHaveLength(2);
  });

  it('reports session:end as an ended session', async () => {
    connectSocket(ada(), { url, ...fast });
    await untilStatus('connected');
    serverSockets[0]!.emit(authEvents.sessionEnd, { reason: 'signed_out' });
    await untilStatus('ended');
  });

  it('reports a refused handshake, logs it to the console, and retries when a fresh token arrives', async () => {
    acceptedTokens = new Set(['tok-2']);
    connectSocket(ada('expired'), { url, ...fast });
    await untilStatus('failed');
    expect(getSocketFailure()).toBe('refused');
    expect(console.error).toHaveBeenCalledWith('[socket] connection error:', 'Unauthorized');
    connectSocket(ada('tok-2'), { url, ...fast });
    await untilStatus('connected');
  });

  it('stops for good when the server no longer speaks this build’s protocol: no retry, not even with a fresh token', async () => {
    protocolOk = (p) => typeof p === 'number' && p > REALTIME_PROTOCOL;
    connectSocket(ada(), { url, ...fast });
    await untilStatus('failed');
    expect(getSocketFailure()).toBe('outdated');
    expect(console.error).toHaveBeenCalledWith('[socket] connection error:', PROTOCOL_OUTDATED_MESSAGE);
    reconnectSocket();
    connectSocket(ada('tok-2'), { url, ...fast });
    await new Promise((r) => setTimeout(r, 200));
    expect(handshakes).toHaveLength(1);
    expect(getSocketStatus()).toBe('failed');
    expect(getSocketFailure()).toBe('outdated');
    // A message or a start that could not go says why, and offers the reload rather than a reconnect.
    expect(offlineNotice()).toMatchObject({ title: 'Parley has been updated', action: { label: 'Reload' } });
  });

  it('gives up after the configured attempts, then reconnects on demand', async () => {
    const port = Number(new URL(url).port);
    connectSocket(ada(), { url, ...fast, reconnectionAttempts: 2 });
    await untilStatus('connected');
    // The server goes away without saying goodbye (network loss, crash): not a deliberate disconnect.
    io.close();
    await untilStatus('reconnecting');
    await untilStatus('failed');
    expect(getSocketFailure()).toBe('exhausted');
    await listen(port);
    reconnectSocket();
    await untilStatus('connected');
  });

  it('delivers server events to subscribers with the ack callback, until they unsubscribe', async () => {
    connectSocket(ada(), { url, ...fast });
    await untilStatus('connected');
    const received: unknown[] = [];
    const off = onSocketEvent('ping:test', (payload: unknown, ack: (a: unknown) => void) => {
      received.push(payload);
      ack({ thanks: true });
    });
    const answer = await serverSockets[0]!.timeout(1000).emitWithAck('ping:test', { n: 1 });
    expect(received).toEqual([{ n: 1 }]);
    expect(answer).toEqual({ thanks: true });
    off();
    serverSockets[0]!.emit('ping:test', { n: 2 });
    await new Promise((r) => setTimeout(r, 50));
    expect(received).toEqual([{ n: 1 }]);
  });

  it('sends with acknowledgement while connected, and refuses at once when offline', async () => {
    expect(emitSocket('echo', 1)).toBe(false);
    await expect(emitSocketWithAck('echo', 1, 1000)).rejects.toThrow('Not connected');
    connectSocket(ada(), { url, ...fast });
    await untilStatus('connected');
    await expect(emitSocketWithAck('echo', 'hi', 1000)).resolves.toEqual({ got: 'hi' });
  });
});
