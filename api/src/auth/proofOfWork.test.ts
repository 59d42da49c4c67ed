import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Challenge } from 'altcha-lib';
import { POW_AFTER_LOGIN_FAILURES, POW_CHALLENGE_TTL_S } from '@parley/contract/constants';
import { ERR } from '@parley/contract/errors';
import { loadConfig } from '../platform/config.ts';
import { memoryLimiter, type RateLimiters } from '../platform/rateLimit.ts';
import { proofFrom, solveProof } from '../testing/proofOfWork.ts';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { proofOfWork } from './proofOfWork.ts';

const password = 'correct horse battery';
let seq = 0;
const fresh = () => `pow${Date.now().toString(36).slice(-5)}${seq++}`;

describe('proof of work (module)', () => {
  const secrets = {
    jwtSecret: new TextEncoder().encode('a test secret that is long enough to sign with'),
    vapid: { publicKey: '', privateKey: '' },
  };
  const limiters: RateLimiters = { create: (spec) => memoryLimiter(spec) };
  const cfg = loadConfig({ NODE_ENV: 'test', POW_DIFFICULTY: '500' });

  it('accepts a solved challenge once, and refuses it used again', async () => {
    const pow = proofOfWork({ cfg, secrets, limiters });
    const payload = await solveProof(await pow.challenge());
    await expect(pow.verify(payload)).resolves.toBeUndefined();
    await expect(pow.verify(payload)).rejects.toMatchObject({ message: ERR.proofUsed, code: 'proof_used' });
  });

  it('refuses a solution of a challenge that has expired', async () => {
    const longAgo = Date.now() - 2 * POW_CHALLENGE_TTL_S * 1000;
    const pow = proofOfWork({ cfg, secrets, limiters }, () => longAgo);
    const payload = await solveProof(await pow.challenge());
    await expect(proofOfWork({ cfg, secrets, limiters }).verify(payload)).rejects.toMatchObject({
      message: ERR.proofExpired,
      code: 'proof_expired',
    });
  });

  it('refuses a challenge signed by another server, a key not found by the work, and garbage', async () => {
    const pow = proofOfWork({ cfg, secrets, limiters });
    const other = proofOfWork({
      cfg,
      secrets: { ...secrets, jwtSecret: new TextEncoder().encode('another secret, another server, long too') },
      limiters,
    });
    await expect(pow.verify(await solveProof(await other.challenge()))).rejects.toMatchObject({ code: 'proof_invalid' });
    const solved = JSON.parse(Buffer.from(await solveProof(await pow.challenge()), 'base64').toString()) as {
      solution: { derivedKey: string };
    };
    // The key is what the work finds: a made-up one must not pass.
    solved.solution.derivedKey = solved.solution.derivedKey.replace(/^./, (c) => (c === '0' ? '1' : '0'));
    await expect(pow.verify(Buffer.from(JSON.stringify(solved)).toString('base64'))).rejects.toMatchObject({ code: 'proof_invalid' });
    await expect(pow.verify('not base64 json')).rejects.toMatchObject({ code: 'proof_invalid' });
    await expect(pow.verify(undefined)).rejects.toMatchObject({ message: ERR.proofRequired, code: 'proof_required' });
  });

  it('sets the work around the configured difficulty', async () => {
    const pow = proofOfWork({ cfg, secrets, limiters });
    const counters = await Promise.all(
      Array.from(
        { length: 5 },
        async () =>
          (JSON.parse(Buffer.from(await solveProof(await pow.challenge()), 'base64').toString()) as { solution: { counter: number } })
            .solution.counter,
      ),
    );
    for (const c of counters) expect(c).toBeGreaterThanOrEqual(250);
    for (const c of counters) expect(c).toBeLessThanOrEqual(750);
  });
});

describe('proof of work over HTTP', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ TRUST_PROXY: 'true' });
  });
  afterAll(() => server.close());

  let address = 0;
  const from = () => ({ 'x-forwarded-for': `10.7.${address >> 8}.${address++ & 255}` });
  const post = (path: string, json: unknown, headers = from()) => server.api(path, { method: 'POST', json, headers });
  const account = () => ({ username: fresh(), password, age: 30, gender: 'other' });

  it('GET /api/auth/challenge answers a signed, expiring challenge that is not cached', async () => {
    const res = await server.api('/api/auth/challenge');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const challenge = (await res.json()) as Challenge;
    expect(challenge.signature).toMatch(/^[0-9a-f]{64}$/);
    expect(challenge.parameters.algorithm).toBe('SHA-256');
    expect(challenge.parameters.expiresAt! * 1000).toBeGreaterThan(Date.now());
  });

  it('sign-up without a solution → 400 saying what to do; with one → 201', async () => {
    const without = await post('/api/auth/signup', account());
    expect(without.status).toBe(400);
    expect(await without.json()).toEqual({ message: ERR.proofRequired, code: 'proof_required' });
    const forged = await post('/api/auth/signup', { ...account(), altcha: Buffer.from('{"challenge":{}}').toString('base64') });
    expect(forged.status).toBe(400);
    expect(((await forged.json()) as { code: string }).code).toBe('proof_invalid');
    expect((await server.signup(account(), { headers: from() })).status).toBe(201);
  });

  it('a replayed solution → 400, from any address', async () => {
    const altcha = await proofFrom(server.url);
    expect((await post('/api/auth/signup', { ...account(), altcha })).status).toBe(201);
    const replay = await post('/api/auth/signup', { ...account(), altcha });
    expect(replay.status).toBe(400);
    expect(await replay.json()).toEqual({ message: ERR.proofUsed, code: 'proof_used' });
  });

  it(`sign-in after ${POW_AFTER_LOGIN_FAILURES} failures for a name needs a solution; the owner then signs in with one`, async () => {
    const who = account();
    expect((await server.signup(who, { headers: from() })).status).toBe(201);
    // Before any failure the form sends no proof and is let in.
    expect((await post('/api/auth/login', { username: who.username, password })).status).toBe(200);
    for (let i = 0; i < POW_AFTER_LOGIN_FAILURES; i++) {
      expect((await post('/api/auth/login', { username: who.username, password: 'wrong password' })).status).toBe(401);
    }
    const without = await post('/api/auth/login', { username: who.username, password });
    expect(without.status).toBe(400);
    expect(await without.json()).toEqual({ message: ERR.proofRequired, code: 'proof_required' });
    const address = from();
    const altcha = await proofFrom(server.url, { headers: address });
    expect((await post('/api/auth/login', { username: who.username, password, altcha }, address)).status).toBe(200);
  });

  it(`sign-in from an address with ${POW_AFTER_LOGIN_FAILURES} failures needs a solution, whatever the name`, async () => {
    const who = account();
    expect((await server.signup(who, { headers: from() })).status).toBe(201);
    const address = from();
    for (let i = 0; i < POW_AFTER_LOGIN_FAILURES; i++) {
      expect((await post('/api/auth/login', { username: fresh(), password: 'wrong password' }, address)).status).toBe(401);
    }
    expect((await post('/api/auth/login', { username: who.username, password }, address)).status).toBe(400);
    const altcha = await proofFrom(server.url, { headers: address });
    expect((await post('/api/auth/login', { username: who.username, password, altcha }, address)).status).toBe(200);
  });
});

describe('proof of work across processes', () => {
  it.skipIf(!process.env.REDIS_URL)(
    'a solution used on one API process is refused on another (Redis)',
    async () => {
      const shared = { JWT_SECRET: 'a secret both processes share, long enough to sign', REDIS_KEY_PREFIX: `pow${Date.now()}:` };
      const a = await startTestServer(shared);
      const b = await startTestServer(shared);
      try {
        const altcha = await proofFrom(a.url);
        const body = (username: string) => ({ username, password, age: 30, gender: 'other', altcha });
        expect((await a.api('/api/auth/signup', { method: 'POST', json: body(fresh()) })).status).toBe(201);
        const replay = await b.api('/api/auth/signup', { method: 'POST', json: body(fresh()) });
        expect(replay.status).toBe(400);
        expect(((await replay.json()) as { code: string }).code).toBe('proof_used');
      } finally {
        await Promise.all([a.close(), b.close()]);
      }
    },
    120_000,
  );
});
