import { describe, expect, it, vi } from 'vitest';
import type { Socket } from 'socket.io-client';
import { randomUUID } from 'node:crypto';
import {
  ONLINE_PAGE_SIZE,
  ONLINE_PAGES_BURST,
  presenceEvents,
  type OnlineUsersDelta,
  type OnlineUsersPage,
} from '@parley/contract/presence';
import { chatEvents, type SocketError } from '@parley/contract/matchmaking';
import { friendships } from '../db/schema.ts';
import { pastRefreshGrace } from '../testing/refreshGrace.ts';
import { authEvents, type TokenUser } from '@parley/contract/auth';
import { OLDEST_REALTIME_PROTOCOL, PROTOCOL_OUTDATED, PROTOCOL_OUTDATED_MESSAGE, REALTIME_PROTOCOL } from '@parley/contract/protocol';
import { MAX_SOCKETS_PER_USER, type Realtime } from './server.ts';
import { expiredToken, next, person, refreshCookieHeader, silent, socketTestServer, type Conn } from '../testing/socketClients.ts';

const clients = socketTestServer();
const { open, sockets } = clients;

describe('socket handshake', () => {
  it('refuses a connection without a token', async () => {
    await expect(open(person(), { token: undefined })).rejects.toThrow('Unauthorized');
  });

  it('refuses an expired token', async () => {
    const u = person();
    const expired = await expiredToken(clients.server(), u);
    await expect(open(u, { token: expired })).rejects.toThrow('Unauthorized');
  });

  it('refuses a token of another user than the userId claimed', async () => {
    await expect(open(person(), { userId: randomUUID() })).rejects.toThrow('Unauthorized');
  });

  it('refuses a handshake without the userId query, or with a malformed tab id', async () => {
    await expect(open(person(), { userId: null })).rejects.toThrow('Unauthorized');
    await expect(open(person(), { query: { tab: 'no spaces allowed' } })).rejects.toThrow('Invalid tab id');
  });

  it(`refuses more than ${MAX_SOCKETS_PER_USER} open sockets of one user`, async () => {
    const u = person();
    // Handshakes arriving together too.
    await Promise.allSettled(Array.from({ length: MAX_SOCKETS_PER_USER + 5 }, () => open(u)));
    await new Promise((r) => setTimeout(r, 300));
    expect(sockets.filter((s) => s.connected).length).toBe(MAX_SOCKETS_PER_USER);
    for (const s of sockets.filter((k) => !k.connected)) s.disconnect();
    await expect(open(u)).rejects.toThrow('Too many connections');
    sockets.find((s) => s.connected)!.disconnect();
    await new Promise((r) => setTimeout(r, 100));
    expect((await open(u)).connected).toBe(true);
  });

  it('refuses a client that names no protocol version, an older one than it supports, or not a number', async () => {
    const refusal = { message: PROTOCOL_OUTDATED_MESSAGE, data: { code: PROTOCOL_OUTDATED } };
    await expect(open(person(), { protocol: undefined })).rejects.toMatchObject(refusal);
    await expect(open(person(), { protocol: OLDEST_REALTIME_PROTOCOL - 1 })).rejects.toMatchObject(refusal);
    await expect(open(person(), { protocol: String(REALTIME_PROTOCOL) })).rejects.toMatchObject(refusal);
    await expect(open(person(), { protocol: REALTIME_PROTOCOL + 0.5 })).rejects.toMatchObject(refusal);
    // Told before its token is looked at: renewing the token would not help it.
    await expect(open(person(), { protocol: undefined, token: undefined })).rejects.toMatchObject(refusal);
  });

  it('lets in the current protocol version, the oldest supported and a newer one, and keeps it on the socket', async () => {
    for (const protocol of new Set([REALTIME_PROTOCOL, OLDEST_REALTIME_PROTOCOL, REALTIME_PROTOCOL + 1])) {
      const s = await open(person(), { protocol });
      expect(s.connected).toBe(true);
      const held = (clients.server().deps.realtime as Realtime).io.sockets.sockets.get(s.id!)!;
      expect(held.data.protocol).toBe(protocol);
      s.disconnect();
    }
  });

  it('keeps the verified user on the socket and drops the token itself', async () => {
    const u = person();
    const s = await open(u);
    const held = (clients.server().deps.realtime as Realtime).io.sockets.sockets.get(s.id!)!;
    expect(held.data.user.userId).toBe(u.userId);
    expect(held.handshake.auth).toEqual({});
  });
});

describe('presence', () => {
  // The first page is sent on connect and can arrive before open() resolves (or while other sockets
  // connect), so it is listened for from the socket's creation.
  const firstPages = new WeakMap<Socket, Promise<OnlineUsersPage>>();
  const openPaged = (u: TokenUser, conn: Conn = {}) =>
    open(u, {
      ...conn,
      created: (s) => {
        const first = next<OnlineUsersPage>(s, presenceEvents.onlineUsers);
        first.catch(() => undefined); // awaited by the test that wants it
        firstPages.set(s, first);
      },
    });
  const page = (k: Socket) => {
    const first = firstPages.get(k);
    if (!first) throw new Error('open the socket with openPaged() to read its first page');
    return first;
  };
  const presence = () => (clients.server().deps.realtime as Realtime).presence;
  /** Settles when the server has taken every join and leave in (they are asynchronous). */
  const online = async (n: number) => {
    await vi.waitFor(async () => expect(await presence().count()).toBe(n), { timeout: 10_000 });
  };

  it('sends the count and a first page on connect, counts tabs once, and tells what changed among what a client holds', async () => {
    await online(0); // the users of the tests before have gone
    const a = person();
    const b = person();
    const ka = await openPaged(a);
    const first = await page(ka);
    expect(first.users.map((u) => u.userId)).toContain(a.userId);
    expect(first.count).toBe(await presence().count());

    const kb1 = await open(b);
    const added = await next<OnlineUsersDelta>(ka, presenceEvents.onlineUsersDelta, (d) => d.added.some((u) => u.userId === b.userId));
    expect(added.added.find((u) => u.userId === b.userId)).toEqual({ userId: b.userId, username: b.username, avatar: '' });
    expect(added.count).toBe(first.count + 1);
    const kb2 = await openPaged(b);
    expect((await page(kb2)).users.filter((u) => u.userId === b.userId)).toHaveLength(1);

    kb1.disconnect();
    // Still online in the other tab: nothing is removed.
    expect(await silent(ka, presenceEvents.onlineUsersDelta, 500)).toBe(true);
    kb2.disconnect();
    const removed = await next<OnlineUsersDelta>(ka, presenceEvents.onlineUsersDelta, (d) => d.removed.includes(b.userId));
    expect(removed.count).toBe(first.count);
  });

  it(`gives at most ${ONLINE_PAGE_SIZE} users a page, friends first, the next page by cursor, and refuses a bad cursor`, async () => {
    const server = clients.server();
    const signup = async () => {
      const r = await server.signup({
        username: `pr${randomUUID().slice(0, 8)}`,
        password: 'correct horse battery',
        age: 30,
        gender: 'male',
      });
      const token = ((await r.json()) as { accessToken: string }).accessToken;
      return { token, user: (await server.deps.tokens.verify(token))! };
    };
    const [me, friend] = await Promise.all([signup(), signup()]);
    const [userLow, userHigh] = [me.user.userId, friend.user.userId].sort() as [string, string];
    await server.deps.db.insert(friendships).values({ userLow, userHigh });
    await online(0);
    const base = 0;
    const crowd = Array.from({ length: 70 }, () => person());
    await Promise.all(crowd.map((u) => open(u)));
    await open(friend.user, { token: friend.token });
    await online(base + 71);
    const k = await openPaged(me.user, { token: me.token });
    const first = await page(k);
    expect(first.count).toBe(base + 72);
    expect(first.users.length).toBeLessThanOrEqual(ONLINE_PAGE_SIZE);
    expect(first.users[0]!.userId).toBe(friend.user.userId);
    expect(first.cursor).not.toBeNull();

    const seen = new Set(first.users.map((u) => u.userId));
    let cursor = first.cursor;
    while (cursor !== null) {
      k.emit(presenceEvents.more, { cursor });
      const more = await next<OnlineUsersPage>(k, presenceEvents.onlineUsersPage);
      expect(more.users.length).toBeLessThanOrEqual(ONLINE_PAGE_SIZE);
      for (const u of more.users) seen.add(u.userId);
      cursor = more.cursor;
    }
    // Every page together: everyone online, each once.
    expect(seen.size).toBe(base + 72);
    for (const u of [...crowd, friend.user]) expect(seen.has(u.userId)).toBe(true);

    k.emit(presenceEvents.more, { cursor: 'not a cursor!' });
    expect(await next<SocketError>(k, chatEvents.error)).toMatchObject({ event: presenceEvents.more, code: 'validation_failed' });
    k.emit(presenceEvents.more, { cursor: first.cursor });
    expect(await next<SocketError>(k, chatEvents.error)).toMatchObject({ event: presenceEvents.more, code: 'invalid_cursor' });
  }, 20_000);

  it('rate-limits page requests', async () => {
    const k = await openPaged(person());
    await page(k);
    const errors: SocketError[] = [];
    k.on(chatEvents.error, (e: SocketError) => errors.push(e));
    // Three bursts at once: the allowance refills while a busy machine handles them.
    for (let i = 0; i < ONLINE_PAGES_BURST * 3; i++) k.emit(presenceEvents.more, { cursor: 'x' });
    await vi.waitFor(() => expect(errors).toHaveLength(ONLINE_PAGES_BURST * 3));
    expect(errors.filter((e) => e.code === 'rate_limited').length).toBeGreaterThanOrEqual(ONLINE_PAGES_BURST);
  });

  it("words its refusals in the page's language, else in the handshake's Accept-Language", async () => {
    const burst = async (k: Socket) => {
      await page(k);
      const errors: SocketError[] = [];
      k.on(chatEvents.error, (e: SocketError) => errors.push(e));
      for (let i = 0; i < ONLINE_PAGES_BURST * 3; i++) k.emit(presenceEvents.more, { cursor: 'x' });
      await vi.waitFor(() => expect(errors).toHaveLength(ONLINE_PAGES_BURST * 3));
      return errors.find((e) => e.code === 'rate_limited')!.message;
    };
    const ja = await openPaged(person(), { locale: 'ja', headers: { 'Accept-Language': 'de' } });
    expect(await burst(ja)).toBe('オンライン一覧へのリクエストが多すぎます。少しお待ちください。');
    const es = await openPaged(person(), { headers: { 'Accept-Language': 'es-ES,es;q=0.9' } });
    expect(await burst(es)).toBe('Demasiadas solicitudes de la lista de conectados. Espera un momento.');
    const en = await openPaged(person());
    expect(await burst(en)).toBe('Too many requests for the online list. Please wait a moment.');
  });

  it('keeps the count exact within a second on every client while many come and go', async () => {
    await online(0);
    const base = 0;
    const watchers = await Promise.all(Array.from({ length: 20 }, () => openPaged(person())));
    await Promise.all(watchers.map(page));
    const counts = watchers.map(() => -1);
    watchers.forEach((k, i) => k.on(presenceEvents.onlineUsersDelta, (d: OnlineUsersDelta) => (counts[i] = d.count)));
    const crowd = await Promise.all(Array.from({ length: 100 }, () => open(person())));
    for (const k of crowd.slice(0, 40)) k.disconnect();
    // 20 watchers and 60 of the crowd stay.
    // The server's own count settles first (joins and leaves are asynchronous); then every client within a second.
    await vi.waitFor(async () => expect(await presence().count()).toBe(base + 80), { timeout: 10_000 });
    const settled = Date.now();
    await vi.waitFor(() => expect(new Set(counts)).toEqual(new Set([base + 80])), { timeout: 1000, interval: 20 });
    expect(Date.now() - settled).toBeLessThan(1000);
  }, 20_000);
});

describe('ending sockets on purpose', () => {
  it('endSession sends session:end and disconnects every tab of the user', async () => {
    const u = person();
    const [k1, k2] = await Promise.all([open(u), open(u)]);
    const ended = next<{ reason: string }>(k1, authEvents.sessionEnd);
    const gone = new Promise<string>((resolve) => k2.once('disconnect', resolve));
    await clients.server().deps.realtime!.endSession(u.userId, 'banned');
    expect(await ended).toEqual({ reason: 'banned' });
    expect(await gone).toBe('io server disconnect');
  });

  it('signing out ends the sockets of that sign-in (every tab of the browser) and no other', async () => {
    const username = `so${randomUUID().slice(0, 8)}`;
    const body = { username, password: 'correct horse battery', age: 30, gender: 'male' };
    const signup = await clients.server().signup(body);
    expect(signup.status).toBe(201);
    const login = await clients.server().api('/api/auth/login', { method: 'POST', json: { username, password: body.password } });
    expect(login.status).toBe(200);
    const here = ((await signup.json()) as { accessToken: string }).accessToken;
    const elsewhere = ((await login.json()) as { accessToken: string }).accessToken;
    const user = (await clients.server().deps.tokens.verify(here))!;
    const [tab1, tab2, phone] = await Promise.all([
      open(user, { token: here }),
      open(user, { token: here }),
      open(user, { token: elsewhere }),
    ]);
    const ended = Promise.all([tab1, tab2].map((k) => next<{ reason: string }>(k, authEvents.sessionEnd)));
    const gone = Promise.all([tab1, tab2].map((k) => new Promise<string>((resolve) => k.once('disconnect', resolve))));
    const phoneUntouched = silent(phone, authEvents.sessionEnd, 800);

    const out = await clients.server().api('/api/auth/logout', { method: 'POST', headers: { cookie: refreshCookieHeader(signup) } });
    expect(out.status).toBe(204);
    expect(await ended).toEqual([{ reason: 'signed_out' }, { reason: 'signed_out' }]);
    expect(await gone).toEqual(['io server disconnect', 'io server disconnect']);
    expect(await phoneUntouched).toBe(true);
    expect(phone.connected).toBe(true);
  });

  it('a reused (stolen) refresh token ends the sockets of its sign-in', async () => {
    const username = `st${randomUUID().slice(0, 8)}`;
    const signup = await clients.server().signup({ username, password: 'correct horse battery', age: 30, gender: 'male' });
    const token = ((await signup.json()) as { accessToken: string }).accessToken;
    const k = await open((await clients.server().deps.tokens.verify(token))!, { token });
    const cookie = refreshCookieHeader(signup);
    expect((await clients.server().api('/api/auth/refresh', { headers: { cookie } })).status).toBe(200);
    await pastRefreshGrace(clients.server().deps.db);
    const ended = next<{ reason: string }>(k, authEvents.sessionEnd);
    // The rotated token presented again, past the grace: theft. The family is revoked and its sockets end.
    expect((await clients.server().api('/api/auth/refresh', { headers: { cookie } })).status).toBe(401);
    expect(await ended).toEqual({ reason: 'refresh_token_reused' });
  });
});
