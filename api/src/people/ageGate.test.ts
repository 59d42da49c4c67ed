import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import { eq } from 'drizzle-orm';
import { ERR } from '@parley/contract/errors';
import { tokenUserSchema } from '@parley/contract/auth';
import { accessTokens, startTestServer, type TestServer } from '../testing/server.ts';
import { users } from '../db/schema.ts';
import { insertAccount, UsernameTakenError } from '../db/accounts.ts';

describe('POST /api/user/verify-info and the Bearer middleware', () => {
  let server: TestServer;
  let userId: string;
  beforeAll(async () => {
    server = await startTestServer();
    // An account as a first Google sign-in leaves it: no age, no gender, not verified.
    const account = await insertAccount(server.deps.db, {
      username: 'FromGoogle',
      googleId: 'google-123',
      avatar: 'https://example.com/a.png',
    });
    userId = account.id;
  });
  afterAll(() => server.close());

  const tokenFor = (ttl?: number, secret = server.deps.secrets.jwtSecret) =>
    accessTokens(secret, ttl).sign({
      username: 'FromGoogle',
      userId,
      avatar: 'https://example.com/a.png',
      gender: null,
      age: null,
      isVerified: false,
      premiumUser: 'free tier',
    });
  const verifyInfo = (body: unknown, authorization?: string) =>
    server.api('/api/user/verify-info', { method: 'POST', json: body, headers: authorization ? { authorization } : {} });

  it.each([
    ['missing', undefined],
    ['malformed', 'Bearer not-a-jwt'],
    ['of another scheme', 'Basic dXNlcjpwYXNz'],
    ['empty', 'Bearer '],
  ])('answers 401 `Unauthorized` when the token is %s', async (_case, authorization) => {
    const res = await verifyInfo({ age: 30, gender: 'male' }, authorization);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ message: ERR.unauthorized, code: 'unauthorized' });
  });

  it('answers 401 for an expired token', async () => {
    const res = await verifyInfo({ age: 30, gender: 'male' }, `Bearer ${await tokenFor(-1)}`);
    expect(res.status).toBe(401);
    expect(((await res.json()) as { message: string }).message).toBe(ERR.unauthorized);
  });

  it('answers 401 for a token signed with another key', async () => {
    const forged = await tokenFor(undefined, new TextEncoder().encode('x'.repeat(48)));
    expect((await verifyInfo({ age: 30, gender: 'male' }, `Bearer ${forged}`)).status).toBe(401);
  });

  it('answers 403 under 18, stores no age, and refuses another age afterwards', async () => {
    const young = await insertAccount(server.deps.db, { username: 'YoungOne', googleId: 'google-young' });
    const token = await accessTokens(server.deps.secrets.jwtSecret).sign({
      username: 'YoungOne',
      userId: young.id,
      avatar: '',
      gender: null,
      age: null,
      isVerified: false,
      premiumUser: 'free tier',
    });
    const res = await verifyInfo({ age: 17, gender: 'female' }, `Bearer ${token}`);
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ message: 'You must be 18 or older to use Parley', code: 'underage' });
    const [row] = await server.deps.db.select().from(users).where(eq(users.id, young.id));
    expect(row).toMatchObject({ age: null, gender: null, isVerified: false });
    // 17, then 18 at once: still refused.
    const again = await verifyInfo({ age: 18, gender: 'female' }, `Bearer ${token}`);
    expect(again.status).toBe(403);
    expect(((await again.json()) as { code: string }).code).toBe('underage');
  });

  it.each([
    [{ age: 'thirty', gender: 'male' }, 'age'],
    [{ age: 30.5, gender: 'male' }, 'age'],
    [{ age: 30, gender: 'robot' }, 'gender'],
    [{ gender: 'male' }, 'age'],
  ])('answers 400 for %o', async (body, field) => {
    const res = await verifyInfo(body, `Bearer ${await tokenFor()}`);
    expect(res.status).toBe(400);
    expect(Object.keys(((await res.json()) as { fields: object }).fields)).toEqual([field]);
  });

  it.each([
    ['banned', { bannedAt: new Date() }, ERR.unauthorized],
    ['deleted', { deletedAt: new Date() }, 'Your account no longer exists.'],
  ])('answers 401 for a %s account and stores nothing', async (which, change, message) => {
    const gone = await insertAccount(server.deps.db, { username: `Gone${which}`, googleId: `google-${which}` });
    await server.deps.db.update(users).set(change).where(eq(users.id, gone.id));
    const token = await accessTokens(server.deps.secrets.jwtSecret).sign({
      username: gone.username,
      userId: gone.id,
      avatar: '',
      gender: null,
      age: null,
      isVerified: false,
      premiumUser: 'free tier',
    });
    const res = await verifyInfo({ age: 30, gender: 'male' }, `Bearer ${token}`);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ message, code: 'unauthorized' });
    const [row] = await server.deps.db.select().from(users).where(eq(users.id, gone.id));
    expect(row).toMatchObject({ age: null, gender: null, isVerified: false });
  });

  it('stores age and gender, verifies the account and answers a fresh token that says so', async () => {
    const res = await verifyInfo({ age: 31, gender: 'female' }, `Bearer ${await tokenFor()}`);
    expect(res.status).toBe(200);
    const payload = tokenUserSchema.parse(decodeJwt(((await res.json()) as { accessToken: string }).accessToken));
    expect(payload).toEqual({
      username: 'FromGoogle',
      userId,
      avatar: 'https://example.com/a.png',
      gender: 'female',
      age: 31,
      isVerified: true,
      premiumUser: 'free tier',
    });
    const [row] = await server.deps.db.select().from(users).where(eq(users.id, userId));
    expect(row).toMatchObject({ age: 31, gender: 'female', isVerified: true });
    // Once given, age and gender are not declared again here.
    const again = await verifyInfo({ age: 45, gender: 'male' }, `Bearer ${await tokenFor()}`);
    expect(again.status).toBe(409);
    expect(((await again.json()) as { code: string }).code).toBe('already_verified');
    const [after] = await server.deps.db.select().from(users).where(eq(users.id, userId));
    expect(after).toMatchObject({ age: 31, gender: 'female' });
  });
});

describe('accounts in the database', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('refuses a second account whose name differs only in case, even past the look-up (the race)', async () => {
    await insertAccount(server.deps.db, { username: 'RaceName' });
    await expect(insertAccount(server.deps.db, { username: 'racename' })).rejects.toBeInstanceOf(UsernameTakenError);
  });
});
