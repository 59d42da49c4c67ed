import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { io as ioClient, type Socket } from 'socket.io-client';
import type { TokenUser } from '@parley/contract/auth';
import { chatEvents, type RoomSetup, type StartSearch } from '@parley/contract/matchmaking';
import { roomEvents, type JoinAnswer, type PostAnswer, type RoomMessage } from '@parley/contract/rooms';
import { REALTIME_PROTOCOL } from '@parley/contract/protocol';
import { accessTokens } from '../auth/tokens.ts';
import { startTestServer, type TestServer } from './server.ts';

export { refreshCookieHeader } from '../auth/testCookies.ts';

/** An access token of `user` that expired a minute ago. */
export const expiredToken = (server: TestServer, user: TokenUser) => accessTokens(server.deps.secrets.jwtSecret, -60).sign(user);

/** How a test client connects; `protocol` (REALTIME_PROTOCOL unless given) undefined sends none, as the oldest builds did. */
export type Conn = {
  token?: string | undefined;
  userId?: string | null;
  query?: Record<string, string>;
  protocol?: unknown;
  /** The handshake's `auth.locale` (the page's language). */
  locale?: string;
  headers?: Record<string, string>;
  /** Called with the socket before it connects: to listen for what the server sends on connect. */
  created?: (s: Socket) => void;
};

export function person(over: Partial<TokenUser> = {}): TokenUser {
  const userId = randomUUID();
  return {
    userId,
    username: `u${userId.slice(0, 8)}`,
    avatar: '',
    gender: 'male',
    age: 30,
    isVerified: true,
    premiumUser: 'free tier',
    ...over,
  };
}

/**
 * The next `event` on `s` (optionally the first one passing `where`). The wait is long: it only
 * bounds a failure, and suites run side by side on a busy machine.
 */
export function next<T = unknown>(s: Socket, event: string, where: (p: T) => boolean = () => true, ms = 15_000): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      s.off(event, on);
      reject(new Error(`no ${event} within ${ms} ms`));
    }, ms);
    const on = (p: T) => {
      if (!where(p)) return;
      clearTimeout(timer);
      s.off(event, on);
      resolve(p);
    };
    s.on(event, on);
  });
}

/** Resolves true when `event` does NOT arrive within `ms`. */
export function silent(s: Socket, event: string, ms = 400): Promise<boolean> {
  return next(s, event, () => true, ms).then(
    () => false,
    () => true,
  );
}

export const search = (over: Partial<StartSearch> = {}): StartSearch => ({
  roomType: 'textChat',
  automaticReconnect: false,
  filters: { topics: [], gender: 'All', ageRange: { minAge: 18, maxAge: 99 } },
  ...over,
});

/** A page opens a room's conversation (a 1:1 chat's too) and follows it live; `after`: the last id it saw. */
export const joinRoom = (s: Socket, roomId: string, after?: number) =>
  s.timeout(12_000).emitWithAck(roomEvents.join, { roomId, ...(after !== undefined && { after }) }) as Promise<JoinAnswer>;

/** Opens the room on every page given, as each page of a chat does once matched. */
export async function joinAll(roomId: string, ...sockets: Socket[]) {
  for (const s of sockets) expect(await joinRoom(s, roomId)).toMatchObject({ ok: true });
}

/** Posts to a room (`room:post`) under a fresh client id unless given; the answer is the message as kept, or a refusal. */
export const postTo = (s: Socket, roomId: string, text: unknown, clientId: unknown = randomUUID()) =>
  s.timeout(12_000).emitWithAck(roomEvents.post, { roomId, clientId, text }) as Promise<PostAnswer>;

/** postTo() that must be kept: the message as the room holds it. */
export async function said(s: Socket, roomId: string, text: string, clientId?: string): Promise<RoomMessage> {
  const a = await postTo(s, roomId, text, clientId);
  if (!a.ok) throw new Error(`refused: ${a.message} (${a.code})`);
  return a.message;
}

/**
 * A test file's server and its socket.io clients: starts the server before the file's tests, ends
 * every client after each test and the server after the last.
 */
export function socketTestServer(env: Record<string, string> = {}) {
  let server: TestServer | undefined;
  const current = () => {
    if (!server) throw new Error('the test server has not started');
    return server;
  };
  const clients = socketClients(current);
  beforeAll(async () => {
    server = await startTestServer(env);
  });
  afterAll(() => server?.close());
  afterEach(() => clients.closeAll());
  return { ...clients, server: current };
}

/** socket.io clients of the test server `server()`; `sockets` lists every one opened, `closeAll` ends them. */
export function socketClients(server: () => TestServer) {
  const sockets: Socket[] = [];

  function open(user: TokenUser, conn: Conn = {}): Promise<Socket> {
    return new Promise((resolve, reject) => {
      void (async () => {
        const token = 'token' in conn ? conn.token : await server().deps.tokens.sign(user);
        const protocol = 'protocol' in conn ? conn.protocol : REALTIME_PROTOCOL;
        const s = ioClient(server().url, {
          path: '/socket.io',
          transports: ['websocket'],
          reconnection: false,
          auth: {
            ...(token !== undefined && { token }),
            ...(protocol !== undefined && { protocol }),
            ...(conn.locale && { locale: conn.locale }),
          },
          ...(conn.headers && { extraHeaders: conn.headers }),
          query: {
            ...(conn.userId !== null && { userId: conn.userId ?? user.userId }),
            username: user.username,
            ...conn.query,
          },
        });
        sockets.push(s);
        conn.created?.(s);
        s.once('connect', () => resolve(s));
        s.once('connect_error', (err) => reject(err));
      })();
    });
  }

  /** Two users matched in a 1:1 chat of `roomType` (text unless told), both pages following its conversation. */
  async function chatting(a = person(), b = person(), roomType: 'textChat' | 'videoChat' = 'textChat', ca: Conn = {}) {
    const paired = await pair(a, b, { roomType }, { roomType }, ca);
    await joinAll(paired.ra.roomId, paired.ka, paired.kb);
    return { ...paired, roomId: paired.ra.roomId };
  }

  /** Two fresh users, matched with each other. */
  async function pair(a = person(), b = person(), sa: Partial<StartSearch> = {}, sb: Partial<StartSearch> = {}, ca: Conn = {}) {
    const [ka, kb] = await Promise.all([open(a, ca), open(b)]);
    const ma = next<RoomSetup>(ka, chatEvents.matched);
    const mb = next<RoomSetup>(kb, chatEvents.matched);
    ka.emit(chatEvents.start, search({ roomType: 'videoChat', ...sa }));
    await next(ka, chatEvents.searching);
    const searchingB = next(kb, chatEvents.searching, () => true, 1000).then(
      () => true,
      () => false,
    );
    kb.emit(chatEvents.start, search({ roomType: 'videoChat', ...sb }));
    const [ra, rb] = await Promise.all([ma, mb]);
    // Matched at once: `matched` alone, no `searching` first.
    expect(await searchingB).toBe(false);
    return { a, b, ka, kb, ra, rb };
  }

  return {
    sockets,
    open,
    pair,
    chatting,
    closeAll() {
      for (const s of sockets.splice(0)) s.disconnect();
    },
  };
}
