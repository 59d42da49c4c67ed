import { describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { presenceEvents, PRESENCE_DELTA_QUERY, type OnlineUser, type OnlineUsersDelta } from '@parley/contract/presence';
import { authEvents } from '@parley/contract/auth';
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

  it('keeps the verified user on the socket and drops the token itself', async () => {
    const u = person();
    const s = await open(u);
    const held = (clients.server().deps.realtime as Realtime).io.sockets.sockets.get(s.id!)!;
    expect(held.data.user.userId).toBe(u.userId);
    expect(held.handshake.auth).toEqual({});
  });
});

describe('presence', () => {
  it('lists online users on connect, counts tabs once, and drops users whose last tab closed', async () => {
    const a = person();
    const b = person();
    const ka = await open(a);
    const first = await next<OnlineUser[]>(ka, presenceEvents.onlineUsers);
    expect(first.map((u) => u.userId)).toContain(a.userId);

    const kb1 = await open(b);
    const withB = await next<OnlineUser[]>(ka, presenceEvents.onlineUsers, (l) => l.some((u) => u.userId === b.userId));
    expect(withB.find((u) => u.userId === b.userId)).toEqual({ userId: b.userId, username: b.username, avatar: '' });
    const kb2 = await open(b);
    const list2 = await next<OnlineUser[]>(kb2, presenceEvents.onlineUsers);
    expect(list2.filter((u) => u.userId === b.userId)).toHaveLength(1);

    kb1.disconnect();
    expect(await silent(ka, presenceEvents.onlineUsers, 500)).toBe(true); // still online in the other tab
    kb2.disconnect();
    const without = await next<OnlineUser[]>(ka, presenceEvents.onlineUsers, (l) => !l.some((u) => u.userId === b.userId));
    expect(without.map((u) => u.userId)).toContain(a.userId);
  });

  it('sends deltas to clients that ask for them', async () => {
    const a = person();
    const b = person();
    const ka = await open(a, { query: { ...PRESENCE_DELTA_QUERY } });
    await next(ka, presenceEvents.onlineUsers);
    const kb = await open(b);
    const added = await next<OnlineUsersDelta>(ka, presenceEvents.onlineUsersDelta, (d) => d.added.some((u) => u.userId === b.userId));
    expect(added.count).toBeGreaterThanOrEqual(2);
    kb.disconnect();
    await next<OnlineUsersDelta>(ka, presenceEvents.onlineUsersDelta, (d) => d.removed.includes(b.userId));
  });

  it('reaches every subscriber although a broadcast goes out in slices', async () => {
    // More newcomers in one beat than get their list in one event-loop turn: each gets it.
    const withList = async (conn: Conn) => {
      const k = await open(person(), conn);
      await next<OnlineUser[]>(k, presenceEvents.onlineUsers);
      return k;
    };
    const [watchers, full] = await Promise.all([
      Promise.all(Array.from({ length: 20 }, () => withList({ query: { ...PRESENCE_DELTA_QUERY } }))),
      Promise.all(Array.from({ length: 20 }, () => withList({}))),
    ]);
    const b = person();
    const seen = Promise.all([
      ...watchers.map((k) => next<OnlineUsersDelta>(k, presenceEvents.onlineUsersDelta, (d) => d.added.some((u) => u.userId === b.userId))),
      ...full.map((k) => next<OnlineUser[]>(k, presenceEvents.onlineUsers, (l) => l.some((u) => u.userId === b.userId))),
    ]);
    await open(b);
    expect(await seen).toHaveLength(40);
  });
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
    const ended = next<{ reason: string }>(k, authEvents.sessionEnd);
    // The rotated token presented again: theft. The family is revoked and its sockets end.
    expect((await clients.server().api('/api/auth/refresh', { headers: { cookie } })).status).toBe(401);
    expect(await ended).toEqual({ reason: 'refresh_token_reused' });
  });
});
