import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, vi } from 'vitest';
import { Server, type Socket as ServerSocket } from 'socket.io';
import { closeSocket, connectSocket, getSocketStatus, subscribeSocketStatus, type SocketStatus } from '../socket';

/**
 * Tests of a room kind against a real socket.io server that plays the API's part of the protocol:
 * before each test the server listens and the page's socket is connected to it; after it, both close.
 */
export type SocketServerTest = {
  httpServer: http.Server;
  io: Server;
  url: string;
  /** The server's side of the page's current connection (tests replace it after a reconnection). */
  server: ServerSocket;
};

/** Reconnects in 20 ms, so that a test sees every state on the way. */
export const FAST_RECONNECT = { reconnectionDelay: 20, reconnectionDelayMax: 40, randomizationFactor: 0 };

/**
 * Registers the server's set-up, filling in `t` (a room kind's test adds its own fields to it).
 * `beforeConnect` runs once the server listens, before the page connects (a room attaches then);
 * what it returns runs after the test, before the socket closes.
 */
export function setUpSocketServer<T extends SocketServerTest>(
  t: T,
  hooks: { beforeConnect?(): (() => void) | void; connected?(server: ServerSocket): void } = {},
): T {
  let cleanUp: (() => void) | void;
  beforeEach(async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    t.httpServer = http.createServer();
    t.io = new Server(t.httpServer, { path: '/socket.io' });
    const first = new Promise<ServerSocket>((resolve) => t.io.on('connection', resolve));
    await new Promise<void>((resolve) => t.httpServer.listen(0, '127.0.0.1', resolve));
    t.url = `http://127.0.0.1:${(t.httpServer.address() as AddressInfo).port}`;
    cleanUp = hooks.beforeConnect?.();
    connectSocket({ token: 't', userId: 'u1', username: 'ada' }, { url: t.url, ...FAST_RECONNECT });
    t.server = await first;
    hooks.connected?.(t.server);
    await untilConnected();
  });
  afterEach(() => {
    cleanUp?.();
    closeSocket();
    t.io.close();
    vi.restoreAllMocks();
  });
  return t;
}

export function untilConnected(): Promise<void> {
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

/** Runs `then` in the same turn as the socket reaches `status` (a reconnection here takes 20 ms). */
export const whenSocketStatus = (status: SocketStatus, then: () => void) =>
  new Promise<void>((resolve) => {
    const off = subscribeSocketStatus(() => {
      if (getSocketStatus() !== status) return;
      off();
      then();
      resolve();
    });
  });
