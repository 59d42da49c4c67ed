import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { startTestServer, type TestServer } from '../../testing/server.ts';
import { proofFrom } from '../../testing/proofOfWork.ts';
import { softAuthenticator } from '../../testing/softAuthenticator.ts';
import { recoveryCodes, refreshTokens, totpFactors, users } from '../../db/schema.ts';
import { acceptedStep, newTotpSecret, totpCodeAt } from './totp.ts';
import { recoveryCodeStore } from './recoveryCodes.ts';

type Json = Record<string, unknown>;
const password = 'correct horse battery';
let seq = 0;
const fresh = (prefix = 'f') => `${prefix}${Date.now().toString(36).slice(-5)}${seq++}`;

describe('authenticator codes', () => {
  const secret = newTotpSecret();
  const now = Date.UTC(2026, 0, 1, 12, 0, 15);
  const step = Math.floor(now / 30_000);

  it('accept the code of this step and of one step either side, no further', () => {
    expect(acceptedStep(secret, totpCodeAt(secret, now), null, now)).toBe(step);
    expect(acceptedStep(secret, totpCodeAt(secret, now - 30_000), null, now)).toBe(step - 1);
    expect(acceptedStep(secret, totpCodeAt(secret, now + 30_000), null, now)).toBe(step + 1);
    expect(acceptedStep(secret, totpCodeAt(secret, now - 60_000), null, now)).toBeNull();
    expect(acceptedStep(secret, totpCodeAt(secret, now + 60_000), null, now)).toBeNull();
  });

  it('refuse a code of a step already used, and of any earlier one', () => {
    const code = totpCodeAt(secret, now);
    expect(acceptedStep(secret, code, step, now)).toBeNull();
    expect(acceptedStep(secret, totpCodeAt(secret, now - 30_000), step, now)).toBeNull();
    expect(acceptedStep(secret, totpCodeAt(secret, now + 30_000), step, now)).toBe(step + 1);
  });
});

describe('passkeys, two-factor and recovery over HTTP', () => {
  const origin = 'https://localhost:8443';
  let server: TestServer;
  beforeAll(async () => {
    // The pages' origin as a deployment names it (the test server's own port is picked at random).
    server = await startTestServer({ TRUST_PROXY: 'true', WEBAUTHN_ORIGIN: origin });
  });
  afterAll(() => server.close());

  let address = 0;
  /** A browser: its own address and cookie jar (device, refresh and known-device cookies). */
  function browser() {
    const ip = `10.9.${address >> 8}.${address++ & 255}`;
    const jar = new Map<string, string>();
    let token: string | undefined;
    const call = async (path: string, json?: unknown, method = json === undefined ? 'GET' : 'POST') => {
      const headers: Record<string, string> = { 'x-forwarded-for': ip };
      if (jar.size) headers.cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
      if (token) headers.authorization = `Bearer ${token}`;
      const res = await server.api(path, { method, json, headers });
      for (const line of res.headers.getSetCookie()) {
        const [pair] = line.split(';');
        const [k, v] = pair!.split('=') as [string, string];
        if (v) jar.set(k, v);
        else jar.delete(k);
      }
      const body = res.status === 204 ? null : ((await res.json()) as Json);
      if (typeof body?.accessToken === 'string') token = body.accessToken;
      return { status: res.status, body: body as Json };
    };
    return { ip, call, signOut: () => (token = undefined) };
  }

  async function account() {
    const b = browser();
    const username = fresh();
    const res = await server.signup({ username, password, age: 30, gender: 'other' }, { headers: { 'x-forwarded-for': b.ip } });
    expect(res.status).toBe(201);
    await b.call('/api/auth/login', { username, password }); // the browser's cookies and token
    const [row] = await server.deps.db.select({ id: users.id }).from(users).where(eq(users.username, username));
    return { ...b, username, userId: row!.id };
  }

  /** Turns the authenticator app on for a signed-in browser; answers its secret and recovery codes. */
  async function withTotp(b: Awaited<ReturnType<typeof account>>) {
    const setup = await b.call('/api/auth/totp/setup', {});
    expect(setup.status).toBe(200);
    const secret = setup.body.secret as string;
    expect(setup.body.qrSvg).toMatch(/^<svg/);
    expect(setup.body.otpauthUrl).toContain(`secret=${secret}`);
    expect((await b.call('/api/auth/totp/confirm', { code: '000000' === totpCodeAt(secret) ? '111111' : '000000' })).status).toBe(400);
    const confirmed = await b.call('/api/auth/totp/confirm', { code: totpCodeAt(secret) });
    expect(confirmed.status).toBe(200);
    // Kept sealed: the table alone does not give the secret away.
    const [row] = await server.deps.db.select().from(totpFactors).where(eq(totpFactors.userId, b.userId));
    expect(row!.secret).not.toContain(secret);
    return { secret, codes: confirmed.body.codes as string[] };
  }

  it('a password alone does not sign in an account with two-factor on; the code does, once', async () => {
    const a = await account();
    const { secret } = await withTotp(a);
    const other = browser();
    const first = await other.call('/api/auth/login', { username: a.username, password });
    expect(first.status).toBe(200);
    expect(first.body.accessToken).toBeUndefined();
    const { pending, methods } = first.body.secondFactor as { pending: string; methods: string[] };
    expect(methods).toEqual(['totp', 'recovery']);
    // The note is no access token.
    const noted = await server.api('/api/auth/factors', { headers: { authorization: `Bearer ${pending}` } });
    expect(noted.status).toBe(401);
    // Nor is it of use from another browser.
    const code = totpCodeAt(secret, Date.now() + 30_000);
    expect((await browser().call('/api/auth/second-factor', { pending, code })).status).toBe(401);
    const done = await other.call('/api/auth/second-factor', { pending, code });
    expect(done.status).toBe(200);
    expect(typeof done.body.accessToken).toBe('string');
    // The same code again is refused, even with a new note.
    const again = await other.call('/api/auth/login', { username: a.username, password });
    const replay = await other.call('/api/auth/second-factor', { pending: (again.body.secondFactor as Json).pending, code });
    expect(replay).toMatchObject({ status: 400, body: { code: 'wrong_code' } });
  });

  it('recovery codes are stored hashed, work once as a second factor, and a new set voids the old', async () => {
    const a = await account();
    const { codes } = await withTotp(a);
    expect(codes).toHaveLength(10);
    const stored = await server.deps.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, a.userId));
    expect(stored).toHaveLength(10);
    const hashes = stored.map((r) => r.codeHash);
    for (const c of codes) expect(hashes.join(' ')).not.toContain(c.replace('-', ''));
    const store = recoveryCodeStore(server.deps.db, server.deps.secrets.jwtSecret);
    expect(hashes).toContain(store.hashOf(codes[0]!));

    const signIn = async (recoveryCode: string) => {
      const b = browser();
      const first = await b.call('/api/auth/login', { username: a.username, password });
      return b.call('/api/auth/second-factor', { pending: (first.body.secondFactor as Json).pending, recoveryCode });
    };
    expect((await signIn(codes[0]!.toUpperCase())).status).toBe(200);
    expect((await signIn(codes[0]!)).status).toBe(400);
    const renewed = await a.call('/api/auth/recovery-codes', {});
    expect((await signIn(codes[1]!)).status).toBe(400);
    expect((await signIn((renewed.body.codes as string[])[0]!)).status).toBe(200);
    expect((await a.call('/api/auth/factors')).body.recoveryCodesLeft).toBe(9);
  });

  it('guesses at the second factor are limited per account', async () => {
    const a = await account();
    await withTotp(a);
    let last = 0;
    for (let i = 0; i < 6; i++) {
      const b = browser();
      const first = await b.call('/api/auth/login', { username: a.username, password });
      last = (await b.call('/api/auth/second-factor', { pending: (first.body.secondFactor as Json).pending, recoveryCode: 'aaaaa-aaaaa' }))
        .status;
    }
    expect(last).toBe(429);
  });

  it('registers a passkey and signs in with it alone; its challenge works once and for its purpose only', async () => {
    const a = await account();
    const key = softAuthenticator(origin);
    const options = await a.call('/api/auth/passkeys/options', {});
    expect(options.body).toMatchObject({ rp: { id: 'localhost' }, authenticatorSelection: { residentKey: 'required' } });
    const created = key.register(options.body as never);
    const saved = await a.call('/api/auth/passkeys', { name: 'Laptop', response: created });
    expect(saved).toMatchObject({ status: 201, body: { name: 'Laptop', lastUsedAt: null } });
    // The same registration again: its challenge is gone.
    expect((await a.call('/api/auth/passkeys', { name: 'Again', response: created })).body.code).toBe('challenge_expired');

    const b = browser();
    const login = await b.call('/api/auth/passkey/options', {});
    const assertion = key.authenticate(login.body as never);
    const done = await b.call('/api/auth/passkey', { response: assertion });
    expect(done.status).toBe(200);
    expect(typeof done.body.accessToken).toBe('string');
    expect((await b.call('/api/auth/passkey', { response: assertion })).body.code).toBe('challenge_expired');
    // A sign-in challenge is no registration challenge.
    const other = await b.call('/api/auth/passkey/options', {});
    expect(
      (
        await a.call('/api/auth/passkeys', {
          name: 'X',
          response: key.register({ challenge: other.body.challenge as string, user: { id: 'x' } }),
        })
      ).body.code,
    ).toBe('challenge_expired');
    const listed = await a.call('/api/auth/factors');
    expect((listed.body.passkeys as Json[])[0]).toMatchObject({ name: 'Laptop', lastUsedAt: expect.any(String) });
    // Another account can neither rename nor remove it; its owner renames it.
    const stranger = await account();
    const id = saved.body.id as string;
    expect((await stranger.call(`/api/auth/passkeys/${id}`, { name: 'Mine now' }, 'PATCH')).status).toBe(404);
    expect((await stranger.call(`/api/auth/passkeys/${id}`, undefined, 'DELETE')).status).toBe(404);
    expect((await a.call(`/api/auth/passkeys/${id}`, { name: '  ' }, 'PATCH')).status).toBe(400);
    expect((await a.call(`/api/auth/passkeys/${id}`, { name: 'x'.repeat(61) }, 'PATCH')).status).toBe(400);
    expect((await a.call(`/api/auth/passkeys/not-an-id`, { name: 'Phone' }, 'PATCH')).status).toBe(400);
    const renamed = await a.call(`/api/auth/passkeys/${id}`, { name: ' Work laptop ' }, 'PATCH');
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ id, name: 'Work laptop', lastUsedAt: expect.any(String) });
    expect(((await a.call('/api/auth/factors')).body.passkeys as Json[])[0]).toMatchObject({ name: 'Work laptop' });
    expect((await a.call(`/api/auth/passkeys/${id}`, undefined, 'DELETE')).status).toBe(204);
    const gone = await b.call('/api/auth/passkey', {
      response: key.authenticate((await b.call('/api/auth/passkey/options', {})).body as never),
    });
    expect(gone.body.code).toBe('passkey_unknown');
  });

  it('a passkey serves as the second factor after a password', async () => {
    const a = await account();
    const key = softAuthenticator(origin);
    await a.call('/api/auth/passkeys', {
      name: 'Phone',
      response: key.register((await a.call('/api/auth/passkeys/options', {})).body as never),
    });
    expect((await a.call('/api/auth/two-factor/passkey', {})).body.codes).toHaveLength(10);
    const b = browser();
    const first = await b.call('/api/auth/login', { username: a.username, password });
    const { pending } = first.body.secondFactor as { pending: string };
    const options = await b.call('/api/auth/second-factor/options', { pending });
    expect(options.body.allowCredentials).toEqual([expect.objectContaining({ id: key.credentialId })]);
    const done = await b.call('/api/auth/second-factor', { pending, passkey: key.authenticate(options.body as never) });
    expect(done.status).toBe(200);
  });

  it('moderators reach the moderation API only with two-factor on', async () => {
    const mod = await account();
    await server.deps.db.update(users).set({ role: 'moderator' }).where(eq(users.id, mod.userId));
    expect(await mod.call('/api/moderation/queue')).toMatchObject({ status: 403, body: { code: 'two_factor_required' } });
    await withTotp(mod);
    expect((await mod.call('/api/moderation/queue')).status).toBe(200);
  });

  it('a recovery code resets a forgotten password, signs out every device, and says nothing of which names exist', async () => {
    const a = await account();
    const { codes } = await withTotp(a);
    const recover = async (json: Json) => {
      const b = browser();
      const altcha = await proofFrom(server.url, { headers: { 'x-forwarded-for': b.ip } });
      return b.call('/api/auth/recover', { ...json, altcha });
    };
    const newPassword = 'a brand new password';
    const missing = await recover({ username: fresh('nobody'), recoveryCode: codes[0], password: newPassword });
    const wrong = await recover({ username: a.username, recoveryCode: 'aaaaa-bbbbb', password: newPassword });
    expect(missing).toEqual(wrong);
    expect(missing).toMatchObject({ status: 400, body: { code: 'recovery_failed' } });
    expect(
      (await browser().call('/api/auth/recover', { username: a.username, recoveryCode: codes[0], password: newPassword })).body.code,
    ).toBe('proof_required');

    expect((await recover({ username: a.username, recoveryCode: codes[0], password: newPassword })).status).toBe(204);
    const live = await server.deps.db.select().from(refreshTokens).where(eq(refreshTokens.userId, a.userId));
    expect(live.every((r) => r.revokedAt !== null)).toBe(true);
    expect((await a.call('/api/auth/refresh')).status).toBe(401);
    expect((await browser().call('/api/auth/login', { username: a.username, password })).status).toBe(401);
    expect((await browser().call('/api/auth/login', { username: a.username, password: newPassword })).body.secondFactor).toBeDefined();
    // Used once.
    expect((await recover({ username: a.username, recoveryCode: codes[0], password })).status).toBe(400);
  });

  it('an account without a password nor a second factor (Google) sets one on its session; then it takes a proof', async () => {
    const a = await account();
    await server.deps.db.update(users).set({ passwordHash: null }).where(eq(users.id, a.userId));
    expect((await a.call('/api/auth/factors')).body.hasPassword).toBe(false);
    expect((await a.call('/api/auth/password', { newPassword: 'short' })).status).toBe(400);
    expect((await a.call('/api/auth/password', { newPassword: 'long enough now' })).status).toBe(204);
    expect((await a.call('/api/auth/factors')).body.hasPassword).toBe(true);
    expect((await a.call('/api/auth/password', { newPassword: 'another long one' })).body.code).toBe('proof_required');
    expect((await a.call('/api/auth/password', { newPassword: 'another long one', currentPassword: 'long enough now' })).status).toBe(204);
  });

  it('a password is changed with a code, a recovery code or a passkey instead of the current one, and other sign-ins end', async () => {
    const a = await account();
    // A Google account with two-factor: no password, so its session alone is not enough.
    await server.deps.db.update(users).set({ passwordHash: null }).where(eq(users.id, a.userId));
    const { secret, codes } = await withTotp(a);
    const elsewhere = browser();
    expect((await a.call('/api/auth/password', { newPassword: 'a first password' })).body.code).toBe('proof_required');
    // More than one proof at once is refused before anything is checked.
    expect((await a.call('/api/auth/password', { newPassword: 'a first password', code: '123456', recoveryCode: codes[0] })).status).toBe(
      400,
    );
    expect((await a.call('/api/auth/password', { newPassword: 'a first password', code: 'abc' })).status).toBe(400);
    const code = totpCodeAt(secret, Date.now() + 30_000);
    expect((await a.call('/api/auth/password', { newPassword: 'a first password', code })).status).toBe(204);
    // That code is spent.
    expect((await a.call('/api/auth/password', { newPassword: 'a second password', code })).body.code).toBe('wrong_code');

    // Another browser signs in (password and code), then a recovery code changes the password again.
    const first = await elsewhere.call('/api/auth/login', { username: a.username, password: 'a first password' });
    const signedIn = await elsewhere.call('/api/auth/second-factor', {
      pending: (first.body.secondFactor as Json).pending,
      recoveryCode: codes[1],
    });
    expect(signedIn.status).toBe(200);
    expect((await elsewhere.call('/api/auth/factors')).status).toBe(200);
    expect((await a.call('/api/auth/password', { newPassword: 'a second password', recoveryCode: codes[0] })).status).toBe(204);
    expect((await a.call('/api/auth/password', { newPassword: 'a third password', recoveryCode: codes[0] })).body.code).toBe('wrong_code');
    expect((await elsewhere.call('/api/auth/refresh')).status).toBe(401);
    expect((await a.call('/api/auth/factors')).status).toBe(200);
    const live = await server.deps.db.select().from(refreshTokens).where(eq(refreshTokens.userId, a.userId));
    expect(new Set(live.filter((r) => r.revokedAt === null).map((r) => r.familyId)).size).toBe(1);

    // A passkey: its challenge is the account's own, asked for while signed in.
    const key = softAuthenticator(origin);
    await a.call('/api/auth/passkeys', {
      name: 'Phone',
      response: key.register((await a.call('/api/auth/passkeys/options', {})).body as never),
    });
    const options = await a.call('/api/auth/passkeys/confirm-options', {});
    expect(options.body.allowCredentials).toEqual([expect.objectContaining({ id: key.credentialId })]);
    const passkey = key.authenticate(options.body as never);
    expect((await a.call('/api/auth/password', { newPassword: 'a passkey password', passkey })).status).toBe(204);
    expect((await a.call('/api/auth/password', { newPassword: 'again a password', passkey })).body.code).toBe('challenge_expired');
    expect(
      (await browser().call('/api/auth/login', { username: a.username, password: 'a passkey password' })).body.secondFactor,
    ).toBeDefined();
  });

  it("a password change proves nothing with another account's factors, and wrong guesses are limited", async () => {
    const a = await account();
    const b = await account();
    const { codes: bCodes } = await withTotp(b);
    const key = softAuthenticator(origin);
    await b.call('/api/auth/passkeys', {
      name: 'B',
      response: key.register((await b.call('/api/auth/passkeys/options', {})).body as never),
    });
    // b's recovery code and b's passkey answer do nothing for a.
    expect((await a.call('/api/auth/password', { newPassword: 'taken over now', recoveryCode: bCodes[0] })).body.code).toBe('wrong_code');
    const bAnswer = key.authenticate((await b.call('/api/auth/passkeys/confirm-options', {})).body as never);
    expect((await a.call('/api/auth/password', { newPassword: 'taken over now', passkey: bAnswer })).status).toBe(400);
    expect((await a.call('/api/auth/passkeys/confirm-options', {})).body.code).toBe('no_passkeys');
    // The code b did not spend still works for b.
    expect((await b.call('/api/auth/password', { newPassword: 'b keeps it', recoveryCode: bCodes[0] })).status).toBe(204);
    // Without a token: 401.
    expect(
      (await server.api('/api/auth/password', { method: 'POST', json: { newPassword: 'nobody at all', currentPassword: password } }))
        .status,
    ).toBe(401);

    // With the two wrong factors above, three wrong passwords use up a's guesses: then 429, the right one too.
    const tries: number[] = [];
    for (let i = 0; i < 3; i++)
      tries.push((await a.call('/api/auth/password', { newPassword: 'a new password', currentPassword: `wrong ${i}` })).status);
    expect(tries).toEqual([403, 403, 403]);
    const limited = await a.call('/api/auth/password', { newPassword: 'a new password', currentPassword: password });
    expect(limited).toMatchObject({ status: 429, body: { code: 'rate_limited' } });
    expect((await browser().call('/api/auth/login', { username: a.username, password })).status).toBe(200);
  });
});
