import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Server, type Socket as ServerSocket } from 'socket.io';
import { authEvents } from '@parley/contract/auth';
import { PROTOCOL_OUTDATED, PROTOCOL_OUTDATED_MESSAGE } from '@parley/contract/protocol';
import { closeSocket, connectSocket, getSocketFailure, getSocketStatus, type SocketIdentity } from './socket';
import { peekToasts } from '../lib/toast';
import { setSigningOut } from '../lib/signingOut';
import { watchSessionSocket } from './sessionSocket';
import { i18n } from '@lingui/core';

// The messages in English: the interface language the tests read.
i18n.loadAndActivate({ locale: 'en', messages: {} });

// The session's answers to socket events, against a real socket.io server.
let httpServer: http.Server;
let io: Server;
let url: string;
let port = 0;
let tokens: unknown[];
let accepted: Set<string>;
/** Set when the server stands for one newer than this build: every handshake is refused as outdated. */
let outdated: boolean;
let serverSockets: ServerSocket[];
let unwatch: () => void;
const fast = { reconnectionDelay: 20, reconnectionDelayMax: 40, randomizationFactor: 0 };
const ada = (token: string): SocketIdentity => ({ token, userId: 'u1', username: 'ada' });

async function listen() {
  httpServer = http.createServer();
  io = new Server(httpServer, { path: '/socket.io' });
  io.use((socket, next) => {
    const token = (socket.handshake.auth as { token?: unknown }).token;
    tokens.push(token);
    if (outdated) next(Object.assign(new Error(PROTOCOL_OUTDATED_MESSAGE), { data: { code: PROTOCOL_OUTDATED } }));
    else if (typeof token === 'string' && accepted.has(token)) next();
    else next(new Error('Unauthorized'));
  });
  io.on('connection', (s) => serverSockets.push(s));
  await new Promise<void>((resolve) => httpServer.listen(port, '127.0.0.1', resolve));
  port = (httpServer.address() as AddressInfo).port;
  url = `http://127.0.0.1:${port}`;
}

function watch(overrides: Partial<Parameters<typeof watchSessionSocket>[0]> = {}) {
  let who: SocketIdentity | null = ada('tok-1');
  const actions = {
    signOut: vi.fn(() => {
      who = null;
    }),
    refresh: vi.fn(async (): Promise<string | null> => 'tok-2'),
    identity: () => who,
    ...overrides,
  };
  unwatch = watchSessionSocket(actions);
  return actions;
}

const lastToast = () => peekToasts()[0];

beforeEach(async () => {
  port = 0;
  tokens = [];
  serverSockets = [];
  accepted = new Set(['tok-1', 'tok-2']);
  outdated = false;
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  await listen();
});

afterEach(() => {
  unwatch();
  closeSocket();
  io.close();
  vi.restoreAllMocks();
});

describe('the session watching its socket', () => {
  it('signs out when the server disconnects on purpose', async () => {
    const actions = watch();
    connectSocket(ada('tok-1'), { url, ...fast });
    await vi.waitFor(() => expect(serverSockets).toHaveLength(1));
    serverSockets[0]!.emit(authEvents.sessionEnd, { reason: 'signed_out_elsewhere' });
    serverSockets[0]!.disconnect(true);
    await vi.waitFor(() => expect(actions.signOut).toHaveBeenCalledTimes(1));
    expect(lastToast()).toMatchObject({ title: 'You were signed out', open: true });
  });

  it('the tab that is signing out is not told it was signed out when the server ends its sign-in', async () => {
    const actions = watch();
    connectSocket(ada('tok-1'), { url, ...fast });
    await vi.waitFor(() => expect(serverSockets).toHaveLength(1));
    const before = lastToast();
    setSigningOut(true);
    try {
      serverSockets[0]!.emit(authEvents.sessionEnd, { reason: 'signed_out' });
      serverSockets[0]!.disconnect(true);
      await vi.waitFor(() => expect(getSocketStatus()).toBe('ended'));
      await new Promise((r) => setTimeout(r, 50));
      expect(actions.signOut).not.toHaveBeenCalled();
      expect(lastToast()).toBe(before);
    } finally {
      setSigningOut(false);
    }
  });

  it('the tab that is signing out is not told the connection was lost when its reconnection fails', async () => {
    const actions = watch();
    connectSocket(ada('tok-1'), { url, ...fast, reconnectionAttempts: 2 });
    await vi.waitFor(() => expect(getSocketStatus()).toBe('connected'));
    const before = lastToast();
    setSigningOut(true);
    try {
      io.close(); // the sign-in ends under the socket, which cannot come back
      await vi.waitFor(() => expect(getSocketStatus()).toBe('failed'), { timeout: 3000 });
      await new Promise((r) => setTimeout(r, 50));
      expect(lastToast()).toBe(before);
      expect(actions.refresh).not.toHaveBeenCalled();
    } finally {
      setSigningOut(false);
    }
  });

  it('does not sign out when the network drops; socket.io reconnects by itself', async () => {
    const actions = watch();
    connectSocket(ada('tok-1'), { url, ...fast });
    await vi.waitFor(() => expect(serverSockets).toHaveLength(1));
    serverSockets[0]!.conn.close();
    await vi.waitFor(() => expect(serverSockets).toHaveLength(2));
    // The server holds the new socket a moment before the page hears that it connected.
    await vi.waitFor(() => expect(getSocketStatus()).toBe('connected'));
    expect(actions.signOut).not.toHaveBeenCalled();
  });

  it('renews a refused token once and reconnects with the new one', async () => {
    accepted = new Set(['tok-2']);
    const actions = watch();
    connectSocket(ada('tok-1'), { url, ...fast });
    await vi.waitFor(() => expect(getSocketStatus()).toBe('connected'));
    expect(actions.refresh).toHaveBeenCalledTimes(1);
    expect(tokens).toEqual(['tok-1', 'tok-2']);
    expect(actions.signOut).not.toHaveBeenCalled();
  });

  it('leaves a build too old for the server alone: no token renewal, no sign-out, no Connection lost toast', async () => {
    outdated = true;
    const actions = watch();
    const before = lastToast();
    connectSocket(ada('tok-1'), { url, ...fast });
    await vi.waitFor(() => expect(getSocketFailure()).toBe('outdated'));
    await new Promise((r) => setTimeout(r, 100));
    expect(tokens).toEqual(['tok-1']);
    expect(actions.refresh).not.toHaveBeenCalled();
    expect(actions.signOut).not.toHaveBeenCalled();
    expect(lastToast()).toBe(before);
  });

  it('signs out when the refused session cannot be renewed', async () => {
    accepted = new Set();
    const actions = watch({ refresh: vi.fn(async () => null) });
    connectSocket(ada('tok-1'), { url, ...fast });
    await vi.waitFor(() => expect(actions.signOut).toHaveBeenCalledTimes(1));
  });

  it('offers Reconnect when the attempts are used up, and clears it once connected again', async () => {
    watch();
    connectSocket(ada('tok-1'), { url, ...fast, reconnectionAttempts: 2 });
    await vi.waitFor(() => expect(getSocketStatus()).toBe('connected'));
    io.close(); // the server vanishes without a goodbye
    await vi.waitFor(() => expect(getSocketStatus()).toBe('failed'), { timeout: 3000 });
    const lost = lastToast()!;
    expect(lost).toMatchObject({ title: 'Connection lost', open: true, action: { label: 'Reconnect' } });

    await listen(); // back on the same port
    lost.action!.onClick();
    await vi.waitFor(() => expect(getSocketStatus()).toBe('connected'));
    await vi.waitFor(() => expect(peekToasts().find((t) => t.id === lost.id)?.open).toBe(false));
  });
});
