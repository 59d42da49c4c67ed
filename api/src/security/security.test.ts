// What an attacker's probe found, reproduced against a real server: each case failed before its fix.
// The PeerJS ticket (one id per ticket, one use, a cap per user) and the headers (CSP, Permissions-Policy,
// CORS of /peerjs) are covered beside their code: peer-server/src/mount.test.ts and api/src/server.test.ts.
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { Writable } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { io as ioClient, type Socket } from 'socket.io-client';
import { sql } from 'drizzle-orm';
import { DrizzleQueryError } from 'drizzle-orm/errors';
import { LOGIN_FAILURES_PER_ADDRESS, LOGIN_FAILURES_PER_USERNAME, MESSAGE_MAX_BYTES } from '@parley/contract/constants';
import { chatEvents, type SocketError } from '@parley/contract/matchmaking';
import { roomEvents, type PostAnswer } from '@parley/contract/rooms';
import { NUL_REFUSED } from '@parley/contract/text';
import { ERR } from '@parley/contract/errors';
import { users } from '../db/schema.ts';
import { refreshCookieHeader } from '../testing/socketClients.ts';
import { createLogger, safeError } from '../platform/logger.ts';
import { memoryLimiter } from '../platform/rateLimit.ts';
import { MAX_FRAME_BYTES, type Realtime } from '../realtime/server.ts';
import { MAX_INVALID_EVENTS } from '../realtime/refusals.ts';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { proofFrom } from '../testing/proofOfWork.ts';
import { member } from '../testing/people.ts';
import { REALTIME_PROTOCOL } from '@parley/contract/protocol';
import { pastRefreshGrace } from '../testing/refreshGrace.ts';

const password = 'correct horse battery';
let seq = 0;
const fresh = (prefix = 'sec') => `${prefix}${Date.now().toString(36).slice(-5)}${seq++}`;

let server: TestServer;
const logLines: string[] = [];
const sockets: Socket[] = [];
beforeAll(async () => {
  // The real logger (its serializers), writing where the test can read it.
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      logLines.push(chunk.toString());
      done();
    },
  });
  server = await startTestServer(
    { TRUST_PROXY: 'true', SIGNUPS_PER_ADDRESS: '10' },
    { log: createLogger({ LOG_LEVEL: 'info', NODE_ENV: 'test' }, sink) },
  );
});
afterAll(() => server.close());
afterEach(() => {
  for (const s of sockets.splice(0)) s.disconnect();
});

let address = 0;
const from = () => `10.9.${address >> 8}.${address++ & 255}`;
const post = (path: string, json: unknown, ip = from(), headers: Record<string, string> = {}) =>
  server.api(path, { method: 'POST', json, headers: { 'x-forwarded-for': ip, ...headers } });
/** A sign-up with its proof of work solved first, so timing the POST times the sign-up alone. */
const postSignup = async (json: Record<string, unknown>, ip = from()) => {
  const altcha = await proofFrom(server.url, { headers: { 'x-forwarded-for': ip } });
  return post('/api/auth/signup', { ...json, altcha }, ip);
};
/** A sign-in with a solved proof of work, as the form sends it once a name or an address has failed a few times. */
const login = async (json: Record<string, unknown>, ip = from()) =>
  post('/api/auth/login', { ...json, altcha: await proofFrom(server.url, { headers: { 'x-forwarded-for': ip } }) }, ip);
async function signup(username = fresh(), ip = from()) {
  const res = await postSignup({ username, password, age: 30, gender: 'other' }, ip);
  expect(res.status).toBe(201);
  return { username, res, token: ((await res.json()) as { accessToken: string }).accessToken };
}
const authed = (token: string) => ({ authorization: `Bearer ${token}` });
const userIdOf = (token: string) => (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { userId: string }).userId;

function connect(token: string, userId = userIdOf(token)): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = ioClient(server.url, {
      path: '/socket.io',
      transports: ['websocket'],
      reconnection: false,
      auth: { token, protocol: REALTIME_PROTOCOL },
      query: { userId },
    });
    sockets.push(s);
    s.once('connect', () => resolve(s));
    s.once('connect_error', reject);
  });
}
const disconnected = (s: Socket) => new Promise<string>((resolve) => s.once('disconnect', resolve));

describe('sign-in limits hand nobody a lock', () => {
  it('an address over its limit is refused without spending the username’s budget', async () => {
    const { username: target } = await signup();
    const blocked = from();
    for (let i = 0; i < LOGIN_FAILURES_PER_ADDRESS; i++) await login({ username: fresh('x'), password: 'nope nope' }, blocked);
    for (let i = 0; i < 20; i++) expect((await login({ username: target, password: 'guess' }, blocked)).status).toBe(429);
    // The name's whole allowance is still there: each guess from a fresh address is a plain 401.
    for (let i = 0; i < LOGIN_FAILURES_PER_USERNAME; i++) expect((await login({ username: target, password: 'guess' })).status).toBe(401);
    // Past it, the owner still signs in from an address without failures.
    expect((await login({ username: target, password })).status).toBe(200);
  });

  it('the in-process limiter holds a bounded number of keys however many names are tried', async () => {
    const limiter = memoryLimiter({ keyPrefix: 't', points: 5, durationSeconds: 900, maxKeys: 1000 });
    for (let i = 0; i < 20_000; i++) await limiter.take(`name${i}`);
    expect(limiter.size()).toBeLessThanOrEqual(1000);
    // The newest windows are the ones kept.
    expect(await limiter.used('name19999')).toBe(1);
  });
});

describe('an access token ends with its sign-in or its account', () => {
  it('signing out refuses the access token at once, on REST and on a new socket', async () => {
    const { res, token } = await signup();
    expect((await server.api('/api/rtc/config', { headers: authed(token) })).status).toBe(200);
    await connect(token);
    await server.api('/api/auth/logout', { method: 'POST', headers: { cookie: refreshCookieHeader(res) } });
    expect((await server.api('/api/rtc/config', { headers: authed(token) })).status).toBe(401);
    await expect(connect(token)).rejects.toThrow(/Unauthorized/);
  });

  it('a reused (stolen) refresh token refuses the family’s access tokens', async () => {
    const { res, token } = await signup();
    const first = refreshCookieHeader(res);
    const rotated = await server.api('/api/auth/refresh', { headers: { cookie: first } });
    expect(rotated.status).toBe(200);
    const second = ((await rotated.json()) as { accessToken: string }).accessToken;
    await pastRefreshGrace(server.deps.db);
    // The old cookie again, past the grace: theft. Both access tokens stop working.
    expect((await server.api('/api/auth/refresh', { headers: { cookie: first } })).status).toBe(401);
    for (const t of [token, second]) expect((await server.api('/api/rtc/config', { headers: authed(t) })).status).toBe(401);
  });

  it('a ban written to the database (by any process) refuses the user’s tokens within a second or so', async () => {
    const { username, token } = await signup();
    await server.deps.db
      .update(users)
      .set({ bannedAt: new Date() })
      .where(sql`lower(${users.username}) = lower(${username})`);
    const deadline = Date.now() + 3_000;
    let status = 200;
    while (status === 200 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
      status = (await server.api('/api/rtc/config', { headers: authed(token) })).status;
    }
    expect(status).toBe(401);
    await expect(connect(token)).rejects.toThrow(/Unauthorized/);
  });
});

describe('NUL and what the log keeps', () => {
  it('a NUL anywhere in a body answers 400, never 500', async () => {
    const login = await post('/api/auth/login', { username: 'abc\u0000def', password: 'whatever1' });
    expect(login.status).toBe(400);
    expect(((await login.json()) as { message: string }).message).toBe(NUL_REFUSED);
    const support = await post('/api/support', { email: 'someone@example.com', topic: 'bug', message: 'hello there \u0000 friend' });
    expect(support.status).toBe(400);
    const key = await post('/api/auth/login', { ['user\u0000name']: 'x', password: 'y' });
    expect(key.status).toBe(400);
    expect(logLines.join('')).not.toContain('someone@example.com');
  });

  it('a failed query is logged without its parameters', () => {
    const err = new DrizzleQueryError(
      'select * from users where email = $1',
      ['victim@example.com'],
      Object.assign(new Error('boom'), { detail: 'Key (email)=(victim@example.com)' }),
    );
    const line = JSON.stringify(safeError(err));
    expect(line).toContain('select * from users where email = $1');
    expect(line).not.toContain('victim@example.com');
  });
});

describe('age and gender are declared once', () => {
  it('an account that gave them at sign-up cannot declare them again through verify-info', async () => {
    const { token } = await signup();
    const res = await server.api('/api/user/verify-info', { method: 'POST', json: { age: 17, gender: 'male' }, headers: authed(token) });
    expect(res.status).toBe(409);
    const again = await server.api('/api/user/verify-info', { method: 'POST', json: { age: 60, gender: 'male' }, headers: authed(token) });
    expect(again.status).toBe(409);
  });
});

describe('sign-up cannot list usernames', () => {
  it('a taken name costs the same password hash as a real sign-up, finished before the answer', async () => {
    const { username } = await signup();
    // Counted, not timed: on a shared machine the time of one answer is mostly other processes' noise,
    // while the hash (argon2id, ~half of a sign-up's own time) is the cost a name prober must not skip.
    const argon2 = createRequire(import.meta.url)('@node-rs/argon2') as { hash: (...args: unknown[]) => Promise<string> };
    const realHash = argon2.hash;
    const hashes: Array<{ settled: boolean }> = [];
    argon2.hash = (...args) => {
      const call = { settled: false };
      hashes.push(call);
      return realHash(...args).finally(() => (call.settled = true));
    };
    const attempt = async (name: string) => {
      const before = hashes.length;
      const res = await postSignup({ username: name, password, age: 30, gender: 'other' });
      const started = hashes.slice(before);
      return { status: res.status, hashed: started.length, settledBeforeAnswer: started.every((h) => h.settled) };
    };
    try {
      expect(await attempt(fresh())).toEqual({ status: 201, hashed: 1, settledBeforeAnswer: true });
      expect(await attempt(username)).toEqual({ status: 409, hashed: 1, settledBeforeAnswer: true });
      // Another case of the same name is the same taken name, at the same cost.
      expect(await attempt(username.toUpperCase())).toEqual({ status: 409, hashed: 1, settledBeforeAnswer: true });
    } finally {
      argon2.hash = realHash;
    }
  });

  it('sign-up attempts are limited per address', async () => {
    const ip = from();
    const answers: number[] = [];
    for (let i = 0; i < 12; i++)
      answers.push((await postSignup({ username: fresh('many'), password, age: 30, gender: 'male' }, ip)).status);
    expect(answers.slice(0, 10)).toEqual(Array(10).fill(201));
    expect(answers.slice(10)).toEqual([429, 429]);
    const last = await postSignup({ username: fresh('many'), password, age: 30, gender: 'male' }, ip);
    expect(last.headers.get('retry-after')).toBeTruthy();
    expect(((await last.json()) as { message: string }).message).toBe(ERR.tooManySignups);
  });
});

describe('one socket cannot slow everyone down', () => {
  it('a frame larger than the largest valid event closes the connection', async () => {
    const { token } = await signup();
    const s = await connect(token);
    const gone = disconnected(s);
    s.emit(roomEvents.post, { roomId: randomUUID(), clientId: 'big', text: 'x'.repeat(MAX_FRAME_BYTES) });
    expect(await gone).toBe('transport close');
  });

  it('the largest valid message still fits: 64 KiB of characters JSON escapes', async () => {
    const { token } = await signup();
    const s = await connect(token);
    const ack = await new Promise<PostAnswer>((resolve) =>
      s.emit(roomEvents.post, { roomId: randomUUID(), clientId: 'quotes', text: '"'.repeat(MESSAGE_MAX_BYTES) }, resolve),
    );
    // No such room, so refused for that reason, not for its size: the frame was read.
    expect(ack).toMatchObject({ ok: false, code: 'unknown_room' });
    expect(s.connected).toBe(true);
  });

  it('a socket that keeps sending invalid events is disconnected', async () => {
    const { token } = await signup();
    const s = await connect(token);
    const errors: SocketError[] = [];
    s.on(chatEvents.error, (e: SocketError) => errors.push(e));
    const gone = disconnected(s);
    for (let i = 0; i <= MAX_INVALID_EVENTS + 1; i++) s.emit(i % 2 ? chatEvents.start : 'no:such:event', { nonsense: i });
    expect(await gone).toBe('io server disconnect');
    expect(errors.length).toBeGreaterThan(0);
  });
});

describe('request ids', () => {
  it('are ours; a client’s id is only logged beside ours, when it looks like one', async () => {
    const given = 'abc-123_DEF.456';
    const res = await server.api('/api/health', { headers: { 'x-request-id': given } });
    const reqId = res.headers.get('x-request-id');
    expect(reqId).toMatch(/^[0-9a-f-]{36}$/);
    const line = await logLineWith(reqId!);
    expect(line).toMatchObject({ reqId, clientReqId: given });
    for (const bad of ['short', 'has spaces in it', '{"level":60,"msg":"forged"}', 'x'.repeat(100)]) {
      const other = await server.api('/api/health', { headers: { 'x-request-id': bad } });
      const id = other.headers.get('x-request-id');
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      expect(await logLineWith(id!)).not.toHaveProperty('clientReqId');
    }
  });
});

/** The access log line of the request answered with X-Request-Id `reqId` (written just after the answer). */
async function logLineWith(reqId: string): Promise<Record<string, unknown>> {
  for (let i = 0; i < 100; i++) {
    const line = logLines.find((l) => l.includes(reqId) && l.includes('"msg":"request"'));
    if (line) return JSON.parse(line) as Record<string, unknown>;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`no access log line for ${reqId}`);
}

describe('what the access log keeps of a request', () => {
  it('the route, never the query string nor the values in the path', async () => {
    const ana = await member(server);
    const secret = `s${Date.now().toString(36)}`;
    const requests = [
      server.api(`/api/auth/google/callback?code=code${secret}&state=state${secret}`),
      server.api(`/api/auth/username-check?username=name${secret}`, { headers: { 'x-forwarded-for': from() } }),
      ana.call(`/api/users/who${secret}`, { headers: { 'x-forwarded-for': from() } }),
      server.api(`/api/no/such/route/path${secret}?token=tok${secret}`),
    ];
    const ids = (await Promise.all(requests)).map((r) => r.headers.get('x-request-id')!);
    const lines = await Promise.all(ids.map(logLineWith));
    expect(lines.map((l) => l.path)).toEqual(['/api/auth/google/callback', '/api/auth/username-check', '/api/users/:username', '/api/…']);
    expect(JSON.stringify(lines)).not.toContain(secret);
  });
});

describe('the client address behind a proxy (TRUST_PROXY=true: one proxy)', () => {
  it('is the entry the proxy appended: what the client wrote to its left changes nothing', async () => {
    const real = from();
    const answers: number[] = [];
    // SIGNUPS_PER_ADDRESS is 10 on this server.
    for (let i = 0; i <= 10; i++)
      answers.push((await postSignup({ username: fresh('spoof'), password, age: 30, gender: 'male' }, `203.0.113.${i}, ${real}`)).status);
    expect(answers.slice(0, 10)).toEqual(Array(10).fill(201));
    expect(answers[10]).toBe(429);
  });

  it('is read the same way for a socket', async () => {
    const { token } = await signup();
    const real = from();
    const s = await new Promise<Socket>((resolve, reject) => {
      const k = ioClient(server.url, {
        path: '/socket.io',
        transports: ['websocket'],
        reconnection: false,
        auth: { token, protocol: REALTIME_PROTOCOL },
        query: { userId: userIdOf(token) },
        extraHeaders: { 'x-forwarded-for': `198.51.100.1, ${real}` },
      });
      sockets.push(k);
      k.once('connect', () => resolve(k));
      k.once('connect_error', reject);
    });
    expect((server.deps.realtime as Realtime).io.sockets.sockets.get(s.id!)?.data.address).toBe(real);
  });

  it('an IPv6 client counts by its /64: other addresses of the same network share its limit', async () => {
    const net = `2001:db8:${(address++).toString(16)}:7`;
    const answers: number[] = [];
    for (let i = 0; i <= 10; i++)
      answers.push((await postSignup({ username: fresh('six'), password, age: 30, gender: 'male' }, `${net}::${i + 1}`)).status);
    expect(answers.slice(0, 10)).toEqual(Array(10).fill(201));
    expect(answers[10]).toBe(429);
    // Another /64 has its own.
    const other = await postSignup(
      { username: fresh('six'), password, age: 30, gender: 'male' },
      `2001:db8:${(address++).toString(16)}:8::1`,
    );
    expect(other.status).toBe(201);
  });
});
