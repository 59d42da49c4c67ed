import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { io as ioClient, type Socket } from 'socket.io-client';
import type { TokenUser } from '@parley/contract/auth';
import { MESSAGE_MAX_BYTES } from '@parley/contract/constants';
import { chatEvents, MESSAGE_DELIVERY_TIMEOUT_MS, type MessageAck, type RoomSetup, type StartSearch } from '@parley/contract/chat';
import { presenceEvents, PRESENCE_DELTA_QUERY, type OnlineUser, type OnlineUsersDelta } from '@parley/contract/presence';
import { authEvents } from '@parley/contract/auth';
import { accessTokens } from '../auth/tokens.ts';
import { refreshCookieHeader } from '../auth/testCookies.ts';
import { userBlocks, users } from '../db/schema.ts';
import { BLOCKS_POLL_MS } from './blocks.ts';
import { MAX_SOCKETS_PER_USER, type Realtime } from '../realtime/server.ts';
import { startTestServer, type TestServer } from '../testing/server.ts';

let server: TestServer;
const sockets: Socket[] = [];

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());
afterEach(() => {
  for (const s of sockets.splice(0)) s.disconnect();
});

function person(over: Partial<TokenUser> = {}): TokenUser {
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

type Conn = { token?: string | undefined; userId?: string | null; query?: Record<string, string> };

function open(user: TokenUser, conn: Conn = {}): Promise<Socket> {
  return new Promise((resolve, reject) => {
    void (async () => {
      const token = 'token' in conn ? conn.token : await server.deps.tokens.sign(user);
      const s = ioClient(server.url, {
        path: '/socket.io',
        transports: ['websocket'],
        reconnection: false,
        auth: token === undefined ? {} : { token },
        query: {
          ...(conn.userId !== null && { userId: conn.userId ?? user.userId }),
          username: user.username,
          ...conn.query,
        },
      });
      sockets.push(s);
      s.once('connect', () => resolve(s));
      s.once('connect_error', (err) => reject(err));
    })();
  });
}

/** The next `event` on `s` (optionally the first one passing `where`). */
function next<T = unknown>(s: Socket, event: string, where: (p: T) => boolean = () => true, ms = 5000): Promise<T> {
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
function silent(s: Socket, event: string, ms = 400): Promise<boolean> {
  return next(s, event, () => true, ms).then(
    () => false,
    () => true,
  );
}

const search = (over: Partial<StartSearch> = {}): StartSearch => ({
  roomType: 'textChat',
  automaticReconnect: false,
  filters: { topics: [], gender: 'All', ageRange: { minAge: 18, maxAge: 99 } },
  ...over,
});

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

const sendWithAck = (s: Socket, payload: unknown) => s.timeout(12_000).emitWithAck(chatEvents.message, payload) as Promise<MessageAck>;

describe('socket handshake', () => {
  it('refuses a connection without a token', async () => {
    await expect(open(person(), { token: undefined })).rejects.toThrow('Unauthorized');
  });

  it('refuses an expired token', async () => {
    const u = person();
    const expired = await accessTokens(server.deps.secrets.jwtSecret, -60).sign(u);
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
    const held = (server.deps.realtime as Realtime).io.sockets.sockets.get(s.id!)!;
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

describe('matching and messages', () => {
  it('matches two users, tells each about the other, and relays a message with a delivery ack', async () => {
    const { a, b, ka, kb, ra, rb } = await pair(
      person({ gender: 'female', age: 25 }),
      person({ age: 40 }),
      {
        filters: { topics: ['jazz', 'chess'], gender: 'All', ageRange: { minAge: 18, maxAge: 99 } },
      },
      { filters: { topics: ['chess'], gender: 'female', ageRange: { minAge: 20, maxAge: 30 } } },
    );
    expect(ra.roomId).toBe(rb.roomId);
    expect(ra.roomType).toBe('videoChat');
    expect(ra.receiver).toEqual({ userId: b.userId, username: b.username, avatar: '', age: 40, gender: 'male', sharedTopics: ['chess'] });
    expect(rb.receiver.userId).toBe(a.userId);
    expect(ra.noCommonTopic).toBe(false);
    expect([ra.initiator, rb.initiator].sort()).toEqual([false, true]);
    expect(ra.initiator).toBe(a.userId < b.userId);

    kb.on(chatEvents.message, (_m: unknown, ack: (x: unknown) => void) => ack({ ok: true }));
    const got = next<{ id: string; text: string; sentAt: number }>(kb, chatEvents.message);
    const ack = await sendWithAck(ka, { id: 'm1', text: 'hello there' });
    expect(ack).toEqual({ ok: true, id: 'm1', sentAt: expect.any(Number), delivered: true });
    expect(await got).toEqual({ id: 'm1', text: 'hello there', sentAt: ack.ok ? ack.sentAt : 0 });

    const typing = next(kb, chatEvents.typing);
    ka.emit(chatEvents.typing, { typing: true });
    expect(await typing).toEqual({ typing: true });
  });

  it('refuses oversized, empty, non-text and malformed messages without delivering anything', async () => {
    const { ka, kb } = await pair();
    kb.on(chatEvents.message, (_m: unknown, ack: (x: unknown) => void) => ack({ ok: true }));
    const nothing = silent(kb, chatEvents.message, 800);
    for (const bad of [
      { id: 'x', text: 'é'.repeat(MESSAGE_MAX_BYTES / 2) + 'a' },
      { id: 'x', text: '   ' },
      { id: 'x', text: 42 },
      { text: 'no id' },
      'just a string',
    ]) {
      const ack = await sendWithAck(ka, bad);
      expect(ack).toMatchObject({ ok: false, code: 'validation_failed' });
    }
    // Without an acknowledgement callback the error comes as chat:error.
    const err = next<{ event: string; code: string }>(ka, chatEvents.error);
    ka.emit(chatEvents.message, { id: 'y', text: '' });
    expect(await err).toMatchObject({ event: chatEvents.message, code: 'validation_failed' });
    expect(await nothing).toBe(true);
    // Exactly the limit is fine.
    const ok = await sendWithAck(ka, { id: 'max', text: 'a'.repeat(MESSAGE_MAX_BYTES) });
    expect(ok).toMatchObject({ ok: true, delivered: true });
  });

  it('refuses invalid filters and messages outside a room', async () => {
    const k = await open(person());
    const err = next<{ event: string; code: string; message: string }>(k, chatEvents.error);
    k.emit(chatEvents.start, { roomType: 'textChat', filters: { ageRange: { minAge: 17, maxAge: 30 } } });
    expect(await err).toMatchObject({ event: chatEvents.start, code: 'validation_failed', message: 'Minimum age is 18' });
    const err2 = next<{ code: string }>(k, chatEvents.error);
    k.emit(chatEvents.start, { roomType: 'groupChat', filters: {} });
    expect((await err2).code).toBe('validation_failed');
    expect(await sendWithAck(k, { id: 'z', text: 'hi' })).toMatchObject({ ok: false, code: 'not_in_room' });
  });

  it('delivers a message at the byte limit that JSON escaping makes six times longer, without dropping the sender', async () => {
    const { ka, kb } = await pair();
    kb.on(chatEvents.message, (_m: unknown, ack: (x: unknown) => void) => ack({ ok: true }));
    const got = next<{ text: string }>(kb, chatEvents.message);
    const text = '\u0001'.repeat(MESSAGE_MAX_BYTES);
    expect(await sendWithAck(ka, { id: 'ctl', text })).toMatchObject({ ok: true, delivered: true });
    expect((await got).text).toBe(text);
    expect(ka.connected).toBe(true);
  });

  it('relays typing signals up to an allowance and drops the rest', async () => {
    const { ka, kb } = await pair();
    const seen: boolean[] = [];
    kb.on(chatEvents.typing, (t: { typing: boolean }) => seen.push(t.typing));
    for (let i = 0; i < 40; i++) ka.emit(chatEvents.typing, { typing: i % 2 === 0 });
    await new Promise((r) => setTimeout(r, 500));
    // "Typing" up to the allowance (burst 8); "stopped typing" always, so no indicator is left on.
    const on = seen.filter(Boolean).length;
    expect(on).toBeGreaterThanOrEqual(8);
    expect(on).toBeLessThanOrEqual(12);
    expect(seen.length - on).toBe(20);
    expect(seen.at(-1)).toBe(false);
    expect(ka.connected).toBe(true);
  });

  it('rate-limits messages per user across tabs', async () => {
    const me = person();
    const one = await pair(me, person());
    const two = await pair(me, person());
    for (const k of [one.kb, two.kb]) k.on(chatEvents.message, (_m: unknown, ack: (x: unknown) => void) => ack({ ok: true }));
    const acks = await Promise.all(
      Array.from({ length: 30 }, (_, i) => sendWithAck(i % 2 ? one.ka : two.ka, { id: `r${i}`, text: `message ${i}` })),
    );
    const limited = acks.filter((a) => !a.ok && a.code === 'rate_limited').length;
    expect(limited).toBeGreaterThanOrEqual(8);
    expect(acks.filter((a) => a.ok).length).toBeGreaterThanOrEqual(20);
  });
});

describe('skip, stop and leaving', () => {
  it('skip ends the room, requeues the sender, and requeues a partner with automatic reconnect', async () => {
    const { ka, kb, ra } = await pair(person(), person(), {}, { automaticReconnect: true });
    const left = next<{ roomId: string; reason: string }>(kb, chatEvents.partnerLeft);
    const bRequeued = next<{ requeued: boolean }>(kb, chatEvents.searching);
    const aRequeued = next<{ requeued: boolean; roomType: string }>(ka, chatEvents.searching);
    ka.emit(chatEvents.next);
    expect(await left).toEqual({ roomId: ra.roomId, reason: 'skip' });
    expect(await aRequeued).toEqual({ roomType: 'videoChat', requeued: true });
    expect(await bRequeued).toMatchObject({ requeued: true });
    // They were partners a moment ago: they do not meet again now, a third user meets one of them.
    const again = Promise.race([next<RoomSetup>(ka, chatEvents.matched), next<RoomSetup>(kb, chatEvents.matched)]);
    const c = person();
    const kc = await open(c);
    const mc = next<RoomSetup>(kc, chatEvents.matched);
    kc.emit(chatEvents.start, search({ roomType: 'videoChat' }));
    expect((await again).receiver.userId).toBe(c.userId);
    expect((await mc).roomType).toBe('videoChat');
  });

  it('a partner without automatic reconnect is not requeued; stop tells the partner the stranger left', async () => {
    const { ka, kb, ra } = await pair();
    const notSearching = silent(kb, chatEvents.searching, 500);
    const left = next<{ reason: string; roomId: string }>(kb, chatEvents.partnerLeft);
    ka.emit(chatEvents.stop);
    expect(await left).toEqual({ roomId: ra.roomId, reason: 'left' });
    expect(await notSearching).toBe(true);
  });

  it('automatic reconnect switched on mid-chat (chat:settings) applies when the partner leaves', async () => {
    const { ka, kb } = await pair();
    kb.emit(chatEvents.settings, { automaticReconnect: true });
    const bad = next<{ event: string; code: string }>(kb, chatEvents.error);
    kb.emit(chatEvents.settings, { automaticReconnect: 'yes' });
    expect(await bad).toMatchObject({ event: chatEvents.settings, code: 'validation_failed' });
    const requeued = next<{ requeued: boolean }>(kb, chatEvents.searching);
    ka.emit(chatEvents.stop);
    expect(await requeued).toMatchObject({ requeued: true });
  });

  it('a skip over the search allowance still ends the chat, and says why no search started', async () => {
    const me = person();
    const { ka, kb, ra } = await pair(me, person());
    // Another tab of the same user spends the allowance (5 a second, burst 10, per user).
    const other = await open(me);
    const nobody = search({ filters: { topics: [], gender: 'female', ageRange: { minAge: 98, maxAge: 99 } } });
    const refusedThere = next<{ code: string }>(other, chatEvents.error);
    for (let i = 0; i < 12; i++) other.emit(chatEvents.start, nobody);
    expect(await refusedThere).toMatchObject({ code: 'rate_limited' });
    const left = next<{ roomId: string; reason: string }>(kb, chatEvents.partnerLeft);
    const refused = next<{ event: string; code: string }>(ka, chatEvents.error);
    ka.emit(chatEvents.next);
    expect(await refused).toMatchObject({ event: chatEvents.next, code: 'rate_limited' });
    expect(await left).toEqual({ roomId: ra.roomId, reason: 'left' });
    expect(await silent(ka, chatEvents.searching)).toBe(true);
  });

  it("echoes the client's search id in what answers that search, requeues and refusals included", async () => {
    const { ka, kb, ra, rb } = await pair(person(), person(), { searchId: 'a-1' }, { searchId: 'b-1', automaticReconnect: true });
    expect([ra.searchId, rb.searchId]).toEqual(['a-1', 'b-1']);
    // A skip names the new search; the partner's automatic requeue answers the search it had.
    const aSearching = next<{ searchId?: string }>(ka, chatEvents.searching);
    const bSearching = next<{ searchId?: string }>(kb, chatEvents.searching);
    ka.emit(chatEvents.next, { searchId: 'a-2' });
    expect((await aSearching).searchId).toBe('a-2');
    expect((await bSearching).searchId).toBe('b-1');
    // A malformed skip or start is refused with the id it carried, when there was one.
    const badNext = next<{ event: string; code: string; searchId?: string }>(ka, chatEvents.error);
    ka.emit(chatEvents.next, { searchId: 42 });
    expect(await badNext).toMatchObject({ event: chatEvents.next, code: 'validation_failed' });
    const badStart = next<{ event: string; code: string; searchId?: string }>(ka, chatEvents.error);
    ka.emit(chatEvents.start, { ...search(), filters: { gender: 'nobody' }, searchId: 'a-3' });
    expect(await badStart).toEqual(expect.objectContaining({ event: chatEvents.start, code: 'validation_failed', searchId: 'a-3' }));
  });

  it('closing the tab ends the room for the partner at once', async () => {
    const { ka, kb, ra } = await pair();
    const left = next<{ reason: string; roomId: string }>(kb, chatEvents.partnerLeft, () => true, 1000);
    ka.disconnect();
    expect(await left).toEqual({ roomId: ra.roomId, reason: 'disconnected' });
  });

  it('a message whose receiver leaves before acknowledging it is reported not delivered at once', async () => {
    const { ka, kb } = await pair();
    // B's tab receives the message but closes before its client acknowledges it.
    kb.on(chatEvents.message, () => kb.disconnect());
    const started = Date.now();
    const ack = await sendWithAck(ka, { id: 'gone', text: 'are you there?' });
    expect(ack).toEqual({ ok: true, id: 'gone', sentAt: expect.any(Number), delivered: false });
    // Not after the delivery timeout: as soon as the server saw the socket go.
    expect(Date.now() - started).toBeLessThan(MESSAGE_DELIVERY_TIMEOUT_MS / 2);
  });

  it('never matches users who blocked each other', async () => {
    const a = person();
    const b = person();
    const c = person();
    await server.deps.db.insert(users).values([a, b, c].map((u) => ({ id: u.userId, username: u.username, age: u.age, gender: u.gender })));
    // Written straight to the database, as another API process would: counted within a poll.
    await server.deps.db.insert(userBlocks).values({ blockerId: b.userId, blockedId: a.userId });
    await new Promise((r) => setTimeout(r, 2 * BLOCKS_POLL_MS));
    const [ka, kb, kc] = await Promise.all([open(a), open(b), open(c)]);
    const room = { roomType: 'textChat' as const };
    ka.emit(chatEvents.start, search(room));
    await next(ka, chatEvents.searching);
    const bNotMatched = silent(kb, chatEvents.matched, 500);
    kb.emit(chatEvents.start, search(room));
    expect(await bNotMatched).toBe(true);
    const mc = next<RoomSetup>(kc, chatEvents.matched);
    kc.emit(chatEvents.start, search(room));
    expect([a.userId, b.userId]).toContain((await mc).receiver.userId);
  });
});

describe('sessions and popular topics', () => {
  it('endSession sends session:end and disconnects every tab of the user', async () => {
    const u = person();
    const [k1, k2] = await Promise.all([open(u), open(u)]);
    const ended = next<{ reason: string }>(k1, authEvents.sessionEnd);
    const gone = new Promise<string>((resolve) => k2.once('disconnect', resolve));
    await server.deps.realtime!.endSession(u.userId, 'banned');
    expect(await ended).toEqual({ reason: 'banned' });
    expect(await gone).toBe('io server disconnect');
  });

  it('signing out ends the sockets of that sign-in (every tab of the browser) and no other', async () => {
    const username = `so${randomUUID().slice(0, 8)}`;
    const body = { username, password: 'correct horse battery', age: 30, gender: 'male' };
    const signup = await server.api('/api/auth/signup', { method: 'POST', json: body });
    expect(signup.status).toBe(201);
    const login = await server.api('/api/auth/login', { method: 'POST', json: { username, password: body.password } });
    expect(login.status).toBe(200);
    const here = ((await signup.json()) as { accessToken: string }).accessToken;
    const elsewhere = ((await login.json()) as { accessToken: string }).accessToken;
    const user = (await server.deps.tokens.verify(here))!;
    const [tab1, tab2, phone] = await Promise.all([
      open(user, { token: here }),
      open(user, { token: here }),
      open(user, { token: elsewhere }),
    ]);
    const ended = Promise.all([tab1, tab2].map((k) => next<{ reason: string }>(k, authEvents.sessionEnd)));
    const gone = Promise.all([tab1, tab2].map((k) => new Promise<string>((resolve) => k.once('disconnect', resolve))));
    const phoneUntouched = silent(phone, authEvents.sessionEnd, 800);

    const out = await server.api('/api/auth/logout', { method: 'POST', headers: { cookie: refreshCookieHeader(signup) } });
    expect(out.status).toBe(204);
    expect(await ended).toEqual([{ reason: 'signed_out' }, { reason: 'signed_out' }]);
    expect(await gone).toEqual(['io server disconnect', 'io server disconnect']);
    expect(await phoneUntouched).toBe(true);
    expect(phone.connected).toBe(true);
  });

  it('a reused (stolen) refresh token ends the sockets of its sign-in', async () => {
    const username = `st${randomUUID().slice(0, 8)}`;
    const signup = await server.api('/api/auth/signup', {
      method: 'POST',
      json: { username, password: 'correct horse battery', age: 30, gender: 'male' },
    });
    const token = ((await signup.json()) as { accessToken: string }).accessToken;
    const k = await open((await server.deps.tokens.verify(token))!, { token });
    const cookie = refreshCookieHeader(signup);
    expect((await server.api('/api/auth/refresh', { headers: { cookie } })).status).toBe(200);
    const ended = next<{ reason: string }>(k, authEvents.sessionEnd);
    // The rotated token presented again: theft. The family is revoked and its sockets end.
    expect((await server.api('/api/auth/refresh', { headers: { cookie } })).status).toBe(401);
    expect(await ended).toEqual({ reason: 'refresh_token_reused' });
  });

  it('a reconnection from the same tab replaces the old socket at once; its text chat is held and resumed', async () => {
    const me = person();
    const tab = randomUUID();
    const text = { roomType: 'textChat' as const };
    const { ka, kb, ra } = await pair(me, person(), text, text, { query: { tab } });
    const old = (server.deps.realtime as Realtime).io.sockets.sockets.get(ka.id!)!;
    const away = next<{ roomId: string }>(kb, chatEvents.partnerAway);
    // As when the network dropped: the old connection is still open on the server.
    const again = await open(me, { query: { tab } });
    expect(await away).toEqual({ roomId: ra.roomId });
    expect(old.connected).toBe(false);
    // Meanwhile the partner's messages are refused, saying why.
    expect(await sendWithAck(kb, { id: 'm0', text: 'hello?' })).toMatchObject({ ok: false, code: 'partner_away' });
    // The resume needs an acknowledgement and a room id; another page of the same user cannot take it.
    const bad = next<{ event: string; code: string }>(again, chatEvents.error);
    again.emit(chatEvents.resume, { roomId: ra.roomId });
    expect(await bad).toMatchObject({ event: chatEvents.resume, code: 'validation_failed' });
    const otherPage = await open(me, { query: { tab: randomUUID() } });
    expect(await otherPage.emitWithAck(chatEvents.resume, { roomId: ra.roomId })).toEqual({ ok: false });
    const back = next<{ roomId: string }>(kb, chatEvents.partnerBack);
    expect(await again.emitWithAck(chatEvents.resume, { roomId: ra.roomId })).toEqual({ ok: true, partnerAway: false });
    expect(await back).toEqual({ roomId: ra.roomId });
    const got = new Promise<string>((resolve) =>
      again.on(chatEvents.message, (m: { text: string }, ack: (a: unknown) => void) => {
        ack({ ok: true });
        resolve(m.text);
      }),
    );
    expect(await sendWithAck(kb, { id: 'm1', text: 'welcome back' })).toMatchObject({ ok: true, delivered: true });
    expect(await got).toBe('welcome back');
    // Closed on purpose (the page unloads): the partner learns at once that the chat ended.
    const left = next<{ reason: string }>(kb, chatEvents.partnerLeft, () => true, 1000);
    again.disconnect();
    expect(await left).toMatchObject({ roomId: ra.roomId, reason: 'disconnected' });
  });

  it.each(['textChat', 'videoChat'] as const)('a %s whose transport dropped is held for its page, and resumed', async (roomType) => {
    const me = person();
    const tab = randomUUID();
    const kind = { roomType };
    const { ka, kb, ra } = await pair(me, person(), kind, kind, { query: { tab } });
    const away = next<{ roomId: string }>(kb, chatEvents.partnerAway);
    ka.io.engine.close();
    expect(await away).toEqual({ roomId: ra.roomId });
    const back = next<{ roomId: string }>(kb, chatEvents.partnerBack);
    const again = await open(me, { query: { tab } });
    expect(await again.emitWithAck(chatEvents.resume, { roomId: ra.roomId })).toEqual({ ok: true, partnerAway: false });
    expect(await back).toEqual({ roomId: ra.roomId });
    const got = next<{ text: string }>(kb, chatEvents.message);
    expect(await again.emitWithAck(chatEvents.message, { id: randomUUID(), text: 'back' })).toMatchObject({ ok: true });
    expect((await got).text).toBe('back');
  });

  /**
   * A text chat matched under search 'search-1' whose first page never reads its `matched`: the
   * page reconnects from the same tab (its old socket replaced, the room held for it).
   */
  async function matchedThenDropped() {
    const me = person();
    const tab = randomUUID();
    const text = { roomType: 'textChat' as const };
    const { kb, ra } = await pair(me, person(), { ...text, searchId: 'search-1' }, text, { query: { tab } });
    const away = next(kb, chatEvents.partnerAway);
    const again = await open(me, { query: { tab } });
    await away;
    return { kb, ra, again };
  }

  it('a page whose `matched` was lost in a drop and that searches again gets that room; the partner does not wait out the grace', async () => {
    const { kb, ra, again } = await matchedThenDropped();
    const back = next<{ roomId: string }>(kb, chatEvents.partnerBack);
    // Back, the page sends its search again under the same id (chatSocket.ts does so when it was searching).
    const matched = next<RoomSetup>(again, chatEvents.matched);
    again.emit(chatEvents.start, search({ roomType: 'textChat', searchId: 'search-1' }));
    expect(await matched).toEqual(ra);
    expect(await back).toEqual({ roomId: ra.roomId });
    const got = new Promise<string>((resolve) =>
      kb.on(chatEvents.message, (m: { text: string }, ack: (a: unknown) => void) => {
        ack({ ok: true });
        resolve(m.text);
      }),
    );
    const text2 = 'sorry, my train went into a tunnel';
    expect(await again.emitWithAck(chatEvents.message, { id: randomUUID(), text: text2 })).toMatchObject({ ok: true, delivered: true });
    expect(await got).toBe(text2);
  });

  it('a page back from a drop that starts a new search (say its Next was lost) ends its held chat at once', async () => {
    const { kb, ra, again } = await matchedThenDropped();
    const left = next<{ roomId: string; reason: string }>(kb, chatEvents.partnerLeft, () => true, 1000);
    again.emit(chatEvents.start, search({ roomType: 'textChat', searchId: 'search-2' }));
    expect(await left).toEqual({ roomId: ra.roomId, reason: 'disconnected' });
    expect(await silent(again, chatEvents.matched, 300)).toBe(true);
  });

  /** A text chat whose first user's page dropped (held by `server`), then that user banned through `banning`. */
  async function banWhileHeld(banning: TestServer, ms: number) {
    const me = person();
    const text = { roomType: 'textChat' as const };
    const { ka, kb, ra } = await pair(me, person(), text, text, { query: { tab: randomUUID() } });
    const away = next(kb, chatEvents.partnerAway);
    ka.io.engine.close();
    await away;
    const left = next<{ roomId: string; reason: string }>(kb, chatEvents.partnerLeft, () => true, ms);
    await (banning.deps.realtime as Realtime).endSession(me.userId, 'account_suspended');
    expect(await left).toEqual({ roomId: ra.roomId, reason: 'disconnected' });
  }

  it('a ban (or sign-out) ends a chat held for a dropped page: the partner is told, nothing can resume it', async () => {
    await banWhileHeld(server, 1000);
  });

  it.skipIf(!process.env.REDIS_URL)('a ban in another API process ends a chat held in this one (Redis)', async () => {
    const other = await startTestServer();
    try {
      await banWhileHeld(other, 2000);
    } finally {
      await other.close();
    }
  });

  it('a reconnection from the same tab replaces the old socket at once, holding its video chat', async () => {
    const me = person();
    const tab = randomUUID();
    const { ka, kb } = await pair(me, person(), {}, {}, { query: { tab } });
    const old = (server.deps.realtime as Realtime).io.sockets.sockets.get(ka.id!)!;
    const partnerTold = next(kb, chatEvents.partnerAway);
    // As when the network dropped: the old connection is still open on the server.
    const again = await open(me, { query: { tab } });
    await partnerTold;
    expect(old.connected).toBe(false);
    expect(again.connected).toBe(true);
    // Another tab of the same user is not touched.
    const otherTab = await open(me, { query: { tab: randomUUID() } });
    await new Promise((r) => setTimeout(r, 200));
    expect(again.connected && otherTab.connected).toBe(true);
  });

  it('answers the most searched topics of the last hour to signed-in users', async () => {
    expect((await server.api('/api/chat/topics/popular')).status).toBe(401);
    // Three people; a fourth repeating one topic counts once (per user, topic and hour).
    const spammer = await open(person());
    for (let i = 0; i < 4; i++) {
      spammer.emit(chatEvents.start, search({ filters: { topics: ['zebras'], gender: 'male', ageRange: { minAge: 98, maxAge: 99 } } }));
      await next(spammer, chatEvents.searching);
    }
    for (const topics of [['Board  Games', 'poetry'], ['board games'], ['board games', 'poetry', 'zebras']]) {
      const k = await open(person());
      k.emit(chatEvents.start, search({ roomType: 'textChat', filters: { topics, gender: 'male', ageRange: { minAge: 98, maxAge: 99 } } }));
      await next(k, chatEvents.searching);
    }
    await new Promise((r) => setTimeout(r, 2300)); // searches are written in batches every 2 s
    const token = await server.deps.tokens.sign(person());
    const res = await server.api('/api/chat/topics/popular', { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { topics: string[] };
    expect(body.topics[0]).toBe('board games');
    expect(body.topics.indexOf('poetry')).toBeLessThan(body.topics.indexOf('zebras'));
  });
});
