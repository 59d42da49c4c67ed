import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import { eq, sql } from 'drizzle-orm';
import { LOGIN_FAILURE_WINDOW_S, LOGIN_FAILURES_PER_ADDRESS, LOGIN_FAILURES_PER_USERNAME } from '@parley/contract/constants';
import { ERR } from '@parley/contract/errors';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { proofFrom } from '../testing/proofOfWork.ts';
import { pastRefreshGrace } from '../testing/refreshGrace.ts';
import { users } from '../db/schema.ts';
import { refreshCookieHeader, refreshSetCookie } from './testCookies.ts';

type Json = Record<string, unknown>;
const password = 'correct horse battery';
let seq = 0;
/** A username no other test in this file uses. */
const fresh = (prefix = 'user') => `${prefix}${Date.now().toString(36).slice(-5)}${seq++}`;

describe('accounts over HTTP', () => {
  let server: TestServer;
  beforeAll(async () => {
    // Behind a trusted proxy, so tests can speak from different addresses with X-Forwarded-For.
    server = await startTestServer({ TRUST_PROXY: 'true' });
  });
  afterAll(() => server.close());

  let address = 0;
  /** Each caller gets its own address unless one is given, so limits of other tests never interfere. */
  const nextAddress = () => ({ 'x-forwarded-for': `10.1.${address >> 8}.${address++ & 255}` });
  const post = (path: string, json: unknown, headers: Record<string, string> = {}) =>
    server.api(path, { method: 'POST', json, headers: { ...nextAddress(), ...headers } });
  /** A sign-up with its proof of work solved, as the form sends it. */
  const postSignup = (json: Json, headers: Record<string, string> = {}) =>
    server.signup(json, { headers: { ...nextAddress(), ...headers } });
  /** A sign-in carrying a solved proof of work, as the form sends it once a name or an address has failed a few times. */
  const login = async (json: Json, headers: Record<string, string> = {}) => {
    const from = { ...nextAddress(), ...headers };
    return post('/api/auth/login', { ...json, altcha: await proofFrom(server.url, { headers: from }) }, from);
  };
  const signup = async (username = fresh(), extra: Json = {}) => {
    const res = await postSignup({ username, password, age: 27, gender: 'female', ...extra });
    expect(res.status).toBe(201);
    return { username, res, body: (await res.json()) as { accessToken: string } };
  };

  describe('POST /api/auth/signup', () => {
    it('creates the account and signs it in: 201, an access token and the refresh cookie', async () => {
      const { username, res, body } = await signup();
      const payload = decodeJwt(body.accessToken);
      expect(payload).toMatchObject({ username, avatar: '', gender: 'female', age: 27, isVerified: true, premiumUser: 'free tier' });
      const cookie = refreshSetCookie(res)!;
      expect(cookie).toMatch(/; path=\/api\/auth(;|$)/);
      expect(cookie).toMatch(/; httponly/i);
      expect(cookie).toMatch(/; samesite=lax/i);
      expect(cookie).not.toMatch(/; secure/i);
    });

    it('answers 409 for a name that is taken in any case', async () => {
      const { username } = await signup(fresh('Case'));
      const res = await postSignup({ username: username.toUpperCase(), password, age: 30, gender: 'male' });
      expect(res.status).toBe(409);
      expect(await res.json()).toEqual({ message: ERR.usernameTaken, code: 'username_taken' });
      const lower = await postSignup({ username: username.toLowerCase(), password, age: 30, gender: 'male' });
      expect(lower.status).toBe(409);
    });

    it('gives one account when the same name (differently cased) signs up twice at once', async () => {
      const name = fresh('race');
      const answers = await Promise.all(
        [name, name.toUpperCase(), name.toLowerCase()].map((u) => postSignup({ username: u, password, age: 30, gender: 'other' })),
      );
      expect(answers.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    });

    it('answers 400 with a message for each invalid field', async () => {
      const res = await postSignup({ username: 'a!', password: 'short', age: 17.5, gender: 'robot' });
      expect(res.status).toBe(400);
      const body = (await res.json()) as { message: string; code: string; fields: Record<string, string> };
      expect(body.code).toBe('validation_failed');
      expect(Object.keys(body.fields).sort()).toEqual(['age', 'gender', 'password', 'username']);
      expect(body.fields.password).toBe('Password must be at least 8 characters');
      expect(body.fields.gender).toBe('Gender must be male, female or other');
      expect(body.message).toBe(Object.values(body.fields)[0]);
    });

    it("words each field's message in the language the page asks for", async () => {
      const res = await postSignup({ username: 'has space', password: 'short', age: 30, gender: 'male' }, { 'Accept-Language': 'es' });
      expect(res.status).toBe(400);
      const body = (await res.json()) as { message: string; fields: Record<string, string> };
      expect(body.fields).toEqual({
        username: 'El nombre de usuario solo puede tener letras, números, _ y -',
        password: 'La contraseña debe tener al menos 8 caracteres',
      });
      expect(Object.values(body.fields)).toContain(body.message);
    });

    it.each([
      [{ username: 'ab' }, 'username', 'Username must be at least 3 characters'],
      [{ username: 'a'.repeat(21) }, 'username', 'Username must be at most 20 characters'],
      [{ username: 'has space' }, 'username', 'Username may use only letters, digits, _ and -'],
      [{ age: 17 }, 'age', 'You must be 18 or older to use Parley'],
      [{ age: 100 }, 'age', 'Age must be at most 99'],
      [{ age: '30' }, 'age', 'Age must be a whole number'],
      [{ gender: undefined }, 'gender', 'Gender must be male, female or other'],
      [{ password: undefined }, 'password', 'Password is required'],
    ])('rejects %o with a message on %s', async (change, field, message) => {
      const res = await postSignup({ username: fresh(), password, age: 30, gender: 'male', ...change });
      expect(res.status).toBe(400);
      const body = (await res.json()) as { message: string; fields: Record<string, string> };
      expect(body.fields).toEqual({ [field]: message });
      expect(body.message).toBe(message);
    });

    it.each(['None', 'none', 'NONE', 'nOnE', 'null', 'Stranger', 'you', 'admin'])('refuses the reserved name %s', async (name) => {
      const res = await postSignup({ username: name, password, age: 30, gender: 'male' });
      expect(res.status).toBe(400);
      const body = (await res.json()) as { fields: Record<string, string> };
      expect(body.fields).toEqual({ username: 'This username is reserved; choose another' });
    });

    it('marks the refresh cookie Secure when the public address is https', async () => {
      const https = await startTestServer({ PUBLIC_URL: 'https://parley.example' });
      try {
        const res = await https.signup({ username: fresh(), password, age: 30, gender: 'male' });
        expect(res.status).toBe(201);
        expect(refreshSetCookie(res)).toMatch(/; secure/i);
      } finally {
        await https.close();
      }
    });
  });

  describe('GET /api/auth/username-check', () => {
    type Check = { username: string; available: boolean; reason?: string; suggestions: string[] };
    const check = async (username: string, from = `10.9.0.${address++ & 255}`) => {
      const res = await server.api(`/api/auth/username-check?username=${encodeURIComponent(username)}`, {
        headers: { 'x-forwarded-for': from },
      });
      return { res, body: res.status === 200 ? ((await res.json()) as Check) : null };
    };

    it('says a free name is free, with nothing to suggest', async () => {
      const name = fresh('Free');
      const { res, body } = await check(` ${name} `);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(body).toEqual({ username: name, available: true, suggestions: [] });
    });

    it('offers free names like a taken one (any case), each of which can then sign up', async () => {
      const { username } = await signup(fresh('Taken'));
      const { body } = await check(username.toLowerCase());
      expect(body).toMatchObject({ available: false, reason: ERR.usernameTaken });
      expect(body!.suggestions).toHaveLength(3);
      for (const s of body!.suggestions) {
        expect(s.toLowerCase()).not.toBe(username.toLowerCase());
        expect(s.toLowerCase().startsWith(username.toLowerCase().slice(0, 10))).toBe(true);
      }
      // Take one of them: it is no longer offered.
      const [first] = body!.suggestions;
      await signup(first);
      expect((await check(first!)).body).toMatchObject({ available: false });
    });

    it('offers names for a reserved or malformed choice, never a reserved one', async () => {
      const none = await check('None');
      expect(none.body).toMatchObject({ available: false, reason: 'This username is reserved; choose another' });
      expect(none.body!.suggestions.length).toBeGreaterThan(0);
      for (const s of none.body!.suggestions) expect(s.toLowerCase()).not.toBe('none');
      const spaced = await check('Jane Doe!');
      expect(spaced.body).toMatchObject({ available: false, reason: 'Username may use only letters, digits, _ and -' });
      expect(spaced.body!.suggestions[0]).toMatch(/^Jane_Doe/);
    });

    it('is limited per address: a few checks for each sign-up allowed', async () => {
      const limited = await startTestServer({ TRUST_PROXY: 'true', SIGNUPS_PER_ADDRESS: '1' });
      try {
        const statuses: number[] = [];
        for (let i = 0; i < 7; i++) {
          const res = await limited.api(`/api/auth/username-check?username=name${i}`, { headers: { 'x-forwarded-for': '10.9.9.9' } });
          statuses.push(res.status);
        }
        expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429]);
      } finally {
        await limited.close();
      }
    });

    it('answers 400 without a name', async () => {
      expect((await server.api('/api/auth/username-check')).status).toBe(400);
    });
  });

  it('GET /api/auth/providers says whether Google sign-in, email and translation are set up here', async () => {
    const res = await server.api('/api/auth/providers');
    // Without SMTP_URL the embedded default writes mail to a folder (email works for a local trial);
    // on PostgreSQL, a deployment, email is off until SMTP is set.
    expect(await res.json()).toEqual({ google: false, email: !process.env.DATABASE_URL, translate: false });
  });

  describe('POST /api/auth/login', () => {
    let username: string;
    beforeAll(async () => {
      ({ username } = await signup(fresh('Login')));
    });

    it('answers 200 with an access token and the refresh cookie, whatever the case of the name', async () => {
      const res = await login({ username: username.toLowerCase(), password });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { accessToken: string };
      expect(decodeJwt(body.accessToken).username).toBe(username);
      expect(refreshSetCookie(res)).toMatch(/httponly/i);
    });

    it.each([
      ['no username', { password }],
      ['no password', { username: 'someone' }],
      ['an empty username', { username: '', password }],
      ['an empty password', { username: 'someone', password: '' }],
      ['no body at all', undefined],
    ])('answers 400 `Missing Username or Password` for %s', async (_case, body) => {
      const res = await post('/api/auth/login', body ?? {});
      expect(res.status).toBe(400);
      expect(((await res.json()) as { message: string }).message).toBe(ERR.missingCredentials);
    });

    it('answers 401 `Unauthorized` for a wrong password and for an unknown user alike', async () => {
      const wrong = await login({ username, password: 'not the password' });
      const unknown = await login({ username: fresh('nobody'), password });
      // Longer than sign-up allows, so it cannot be right: the same 401, not a validation error.
      const overlong = await login({ username, password: 'x'.repeat(300) });
      for (const res of [wrong, unknown, overlong]) {
        expect(res.status).toBe(401);
        expect(await res.json()).toEqual({ message: ERR.unauthorized, code: 'unauthorized' });
        expect(refreshSetCookie(res)).toBeUndefined();
      }
    });

    it(`after ${LOGIN_FAILURES_PER_USERNAME} failures for one username, answers 429 to guesses, but lets the right password in from an address without failures`, async () => {
      const { username: target } = await signup(fresh('Locked'));
      for (let i = 0; i < LOGIN_FAILURES_PER_USERNAME; i++) {
        expect((await login({ username: target, password: 'wrong password' })).status).toBe(401);
      }
      // A further guess, from any address (another case too), is refused with the time to wait…
      const guess = await login({ username: target.toUpperCase(), password: 'another guess' });
      expect(guess.status).toBe(429);
      const retryAfter = Number(guess.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(LOGIN_FAILURE_WINDOW_S);
      expect(await guess.json()).toEqual({ message: ERR.tooManyAttempts, code: 'rate_limited' });
      // …and an address that failed may not try the name again, even with the right password.
      const failedFrom = { 'x-forwarded-for': '192.0.2.90' };
      expect((await login({ username: fresh('other'), password: 'x wrong' }, failedFrom)).status).toBe(401);
      expect((await login({ username: target, password }, failedFrom)).status).toBe(429);
      // The owner, from an address without failures, signs in: the guesses handed nobody a lock.
      expect((await login({ username: target, password })).status).toBe(200);
      // Other users are not affected.
      expect((await login({ username, password })).status).toBe(200);
    });

    it(`answers 429 with Retry-After after ${LOGIN_FAILURES_PER_ADDRESS} failures from one address`, async () => {
      const from = { 'x-forwarded-for': '192.0.2.77' };
      for (let i = 0; i < LOGIN_FAILURES_PER_ADDRESS; i++) {
        // Different usernames each time, so only the address limit can trip.
        expect((await login({ username: fresh('guess'), password }, from)).status).toBe(401);
      }
      const res = await login({ username, password }, from);
      expect(res.status).toBe(429);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      // Another address is still welcome.
      expect((await login({ username, password }, { 'x-forwarded-for': '192.0.2.78' })).status).toBe(200);
    });

    it("clears the username's failure count on a successful sign-in", async () => {
      const { username: name } = await signup(fresh('Clears'));
      for (let i = 0; i < LOGIN_FAILURES_PER_USERNAME - 1; i++) {
        expect((await login({ username: name, password: 'wrong password' })).status).toBe(401);
      }
      expect((await login({ username: name, password })).status).toBe(200);
      // A full allowance of failures again before a guess is refused.
      for (let i = 0; i < LOGIN_FAILURES_PER_USERNAME; i++) {
        expect((await login({ username: name, password: 'wrong password' })).status).toBe(401);
      }
      expect((await login({ username: name, password: 'wrong password' })).status).toBe(429);
    });

    it('refuses a suspended account with 403 and a readable message', async () => {
      const { username: name } = await signup(fresh('Banned'));
      await server.deps.db
        .update(users)
        .set({ bannedAt: new Date() })
        .where(sql`lower(${users.username}) = lower(${name})`);
      const res = await login({ username: name, password });
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({
        message: 'This account is banned. You can appeal once from the sign-in screen.',
        code: 'account_suspended',
      });
    });
  });

  describe('refresh tokens', () => {
    it('rotates on each use and answers a token built from the current account', async () => {
      const { res, body } = await signup();
      const first = refreshCookieHeader(res);
      const userId = decodeJwt(body.accessToken).userId as string;
      await server.deps.db.update(users).set({ avatar: '/avatars/new.png' }).where(eq(users.id, userId));

      const r1 = await server.api('/api/auth/refresh', { headers: { cookie: first } });
      expect(r1.status).toBe(200);
      expect(r1.headers.get('cache-control')).toBe('no-store');
      const second = refreshCookieHeader(r1);
      expect(second).not.toBe(first);
      expect(decodeJwt(((await r1.json()) as { accessToken: string }).accessToken).avatar).toBe('/avatars/new.png');

      const r2 = await server.api('/api/auth/refresh', { headers: { cookie: second } });
      expect(r2.status).toBe(200);
      expect(refreshCookieHeader(r2)).not.toBe(second);
    });

    it('rotates a just-rotated token again: a page that navigated away mid-refresh stays signed in', async () => {
      const { res } = await signup();
      const first = refreshCookieHeader(res);
      // The answer to this one never reached the page (it navigated away)...
      expect((await server.api('/api/auth/refresh', { headers: { cookie: first } })).status).toBe(200);
      // ...so the next page presents the same cookie, and gets a working one.
      const again = await server.api('/api/auth/refresh', { headers: { cookie: first } });
      expect(again.status).toBe(200);
      expect((await server.api('/api/auth/refresh', { headers: { cookie: refreshCookieHeader(again) } })).status).toBe(200);
      // Read without rotating within the grace: refused, and nothing is revoked.
      expect((await server.api('/api/auth/info', { headers: { cookie: first } })).status).toBe(401);
      expect((await server.api('/api/auth/refresh', { headers: { cookie: first } })).status).toBe(200);
    });

    it('revokes the whole family when an already-rotated token is presented again after the grace', async () => {
      const { res } = await signup();
      const stolen = refreshCookieHeader(res);
      const rotated = await server.api('/api/auth/refresh', { headers: { cookie: stolen } });
      const current = refreshCookieHeader(rotated);
      await pastRefreshGrace(server.deps.db);

      const reuse = await server.api('/api/auth/refresh', { headers: { cookie: stolen } });
      expect(reuse.status).toBe(401);
      expect(await reuse.json()).toEqual({ message: ERR.unauthorized, code: 'unauthorized' });
      // The reuse also clears the cookie in that browser.
      expect(refreshSetCookie(reuse)).toMatch(/expires=Thu, 01 Jan 1970/);
      // The legitimate holder's newer token died with the family.
      expect((await server.api('/api/auth/refresh', { headers: { cookie: current } })).status).toBe(401);
      expect((await server.api('/api/auth/info', { headers: { cookie: current } })).status).toBe(401);
    });

    it('keeps other sign-ins (families) of the same account working', async () => {
      const { username, res } = await signup();
      const phone = refreshCookieHeader(res);
      const laptop = refreshCookieHeader(await login({ username, password }));
      await server.api('/api/auth/refresh', { headers: { cookie: phone } });
      await pastRefreshGrace(server.deps.db);
      await server.api('/api/auth/refresh', { headers: { cookie: phone } }); // reuse: phone's family revoked
      expect((await server.api('/api/auth/refresh', { headers: { cookie: laptop } })).status).toBe(200);
    });

    it('answers 401 without a cookie or with an unknown one', async () => {
      expect((await server.api('/api/auth/refresh')).status).toBe(401);
      expect((await server.api('/api/auth/refresh', { headers: { cookie: 'parley_refresh=made-up' } })).status).toBe(401);
    });

    it('stops working for a suspended account', async () => {
      const { res, body } = await signup();
      await server.deps.db
        .update(users)
        .set({ bannedAt: new Date() })
        .where(eq(users.id, decodeJwt(body.accessToken).userId as string));
      expect((await server.api('/api/auth/refresh', { headers: { cookie: refreshCookieHeader(res) } })).status).toBe(401);
    });

    it('stores only a hash of the token', async () => {
      const { res } = await signup();
      const token = refreshCookieHeader(res).split('=')[1]!;
      const sha256 = createHash('sha256').update(token).digest('hex');
      const raw = await server.deps.db.execute(sql`select 1 from refresh_tokens where token_hash = ${token}`);
      const hashed = await server.deps.db.execute(sql`select 1 from refresh_tokens where token_hash = ${sha256}`);
      expect(raw.rows).toHaveLength(0);
      expect(hashed.rows).toHaveLength(1);
    });
  });

  describe('GET /api/auth/info', () => {
    it('answers an access token for the refresh cookie without rotating it', async () => {
      const { username, res } = await signup();
      const cookie = refreshCookieHeader(res);
      for (let i = 0; i < 2; i++) {
        const info = await server.api('/api/auth/info', { headers: { cookie } });
        expect(info.status).toBe(200);
        expect(decodeJwt(((await info.json()) as { accessToken: string }).accessToken).username).toBe(username);
      }
      expect((await server.api('/api/auth/refresh', { headers: { cookie } })).status).toBe(200);
    });

    it('answers 401 without the cookie', async () => {
      const res = await server.api('/api/auth/info');
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ message: ERR.unauthorized, code: 'unauthorized' });
    });
  });

  describe('POST /api/auth/logout', () => {
    it('revokes the refresh token, clears the cookie and answers 204 without any access token', async () => {
      const { res } = await signup();
      const cookie = refreshCookieHeader(res);
      const out = await server.api('/api/auth/logout', { method: 'POST', headers: { cookie } });
      expect(out.status).toBe(204);
      const cleared = refreshSetCookie(out)!;
      expect(cleared).toMatch(/^parley_refresh=;/);
      expect(cleared).toMatch(/expires=Thu, 01 Jan 1970/);
      expect(cleared).toMatch(/path=\/api\/auth/);
      expect((await server.api('/api/auth/refresh', { headers: { cookie } })).status).toBe(401);
    });

    it('works with an expired access token', async () => {
      const { res, body } = await signup();
      const { accessTokens } = await import('./tokens.ts');
      const { tokenUserSchema } = await import('@parley/contract/auth');
      const expired = await accessTokens(server.deps.secrets.jwtSecret, -1).sign(tokenUserSchema.parse(decodeJwt(body.accessToken)));
      const out = await server.api('/api/auth/logout', {
        method: 'POST',
        headers: { cookie: refreshCookieHeader(res), authorization: `Bearer ${expired}` },
      });
      expect(out.status).toBe(204);
    });

    it('answers 204 with no cookie at all', async () => {
      const out = await server.api('/api/auth/logout', { method: 'POST' });
      expect(out.status).toBe(204);
      expect(refreshSetCookie(out)).toMatch(/^parley_refresh=;/);
    });
  });

  describe('the access token', () => {
    it('carries exactly the spec fields plus standard claims', async () => {
      const { username, body } = await signup(fresh(), { gender: 'other', age: 44 });
      const payload = decodeJwt(body.accessToken);
      expect(Object.keys(payload).sort()).toEqual(
        ['age', 'aud', 'avatar', 'exp', 'gender', 'iat', 'isVerified', 'iss', 'premiumUser', 'sid', 'sub', 'userId', 'username'].sort(),
      );
      expect(payload).toMatchObject({ username, avatar: '', gender: 'other', age: 44, isVerified: true, premiumUser: 'free tier' });
      expect(payload.sub).toBe(payload.userId);
      expect(payload.exp! - payload.iat!).toBe(15 * 60);
    });
  });
});
