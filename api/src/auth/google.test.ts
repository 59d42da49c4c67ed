import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import { googleStandIn, type GooglePerson } from '../testing/googleStandIn.ts';
import { browse, CookieJar, throughGoogle } from '../testing/googleBrowser.ts';
import { REFRESH_COOKIE_NAME } from '@parley/contract/constants';
import { ERR } from '@parley/contract/errors';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { eq } from 'drizzle-orm';
import { users } from '../db/schema.ts';
import { recoveryCodeStore } from './factors/recoveryCodes.ts';

const CLIENT_ID = 'parley-test-client';
const CLIENT_SECRET = 'a-client-secret-long-enough-for-hs256-signing-000';

/** The people the local OpenID provider knows, by subject. */
const people: Record<string, GooglePerson> = {
  'google-sub-1': { name: 'Jane Doe', email: 'jane@example.com', picture: 'https://lh3.googleusercontent.com/jane.png' },
  'google-sub-2': { name: 'Jane Doe', email: 'jane.other@example.com', picture: 'https://lh3.googleusercontent.com/other.png' },
  'google-sub-banned': { name: 'Sam Banned', email: 'sam@example.com', picture: 'https://lh3.googleusercontent.com/sam.png' },
  'google-sub-2fa': { name: 'Tess Factor', email: 'tess@example.com', picture: 'https://lh3.googleusercontent.com/tess.png' },
};

describe('Google sign-in against a local OpenID provider', () => {
  let server: TestServer;
  let idp: Awaited<ReturnType<typeof googleStandIn>>;
  let issuer: string;

  beforeAll(async () => {
    idp = await googleStandIn(people);
    issuer = idp.issuer;
    server = await startTestServer(
      { GOOGLE_CLIENT_ID: CLIENT_ID, GOOGLE_CLIENT_SECRET: CLIENT_SECRET },
      { googleEndpoints: idp.endpoints },
    );
    idp.admit({ id: CLIENT_ID, secret: CLIENT_SECRET, callback: `${server.url}/api/auth/google/callback` });
  });

  afterAll(async () => {
    await server?.close();
    await idp?.close();
  });

  /**
   * Walks the whole round trip as a browser would: Parley -> provider's login and consent pages
   * (submitted as the given person) -> Parley's callback. Answers where the callback sends the browser.
   */
  async function signInWithGoogle(jar: CookieJar, sub: string): Promise<string> {
    const res = await browse(jar, `${server.url}/api/auth/google`);
    expect(res.status).toBe(302);
    const url = new URL(res.headers.get('location')!, server.url).href;
    const consent = new URL(url);
    expect(consent.origin).toBe(issuer);
    expect(consent.searchParams.get('state')).toBeTruthy();
    expect(consent.searchParams.get('code_challenge_method')).toBe('S256');
    expect(consent.searchParams.get('redirect_uri')).toBe(`${server.url}/api/auth/google/callback`);

    return throughGoogle(jar, server.url, url, sub);
  }

  it('creates a new user, sends them to /confirm-account, and returning users to /dashboard', async () => {
    const jar = new CookieJar();
    expect(await signInWithGoogle(jar, 'google-sub-1')).toBe('/confirm-account');
    expect(jar.get(server.url, REFRESH_COOKIE_NAME)).toBeTruthy();
    // The state cookie was used once and is gone.
    expect(jar.get(server.url, 'parley_oauth_state')).toBeUndefined();

    const info = await browse(jar, `${server.url}/api/auth/info`);
    expect(info.status).toBe(200);
    const first = decodeJwt(((await info.json()) as { accessToken: string }).accessToken);
    expect(Object.keys(first).sort()).toEqual(
      ['age', 'aud', 'avatar', 'exp', 'gender', 'iat', 'isVerified', 'iss', 'premiumUser', 'sid', 'sub', 'userId', 'username'].sort(),
    );
    expect(first).toMatchObject({
      username: 'Jane_Doe',
      avatar: 'https://lh3.googleusercontent.com/jane.png',
      gender: null,
      age: null,
      isVerified: false,
      premiumUser: 'free tier',
    });

    const verified = await server.api('/api/user/verify-info', {
      method: 'POST',
      json: { age: 29, gender: 'female' },
      headers: {
        authorization: `Bearer ${((await (await browse(jar, `${server.url}/api/auth/info`)).json()) as { accessToken: string }).accessToken}`,
      },
    });
    expect(verified.status).toBe(200);

    // A second sign-in (a new browser) finds the same account, now verified.
    const again = new CookieJar();
    expect(await signInWithGoogle(again, 'google-sub-1')).toBe('/dashboard');
    const second = decodeJwt(((await (await browse(again, `${server.url}/api/auth/info`)).json()) as { accessToken: string }).accessToken);
    expect(second).toMatchObject({ userId: first.userId, username: 'Jane_Doe', age: 29, gender: 'female', isVerified: true });
  });

  it('gives a different Google account with the same name a username of its own', async () => {
    const jar = new CookieJar();
    expect(await signInWithGoogle(jar, 'google-sub-2')).toBe('/confirm-account');
    const token = decodeJwt(((await (await browse(jar, `${server.url}/api/auth/info`)).json()) as { accessToken: string }).accessToken);
    expect(token.username).toMatch(/^Jane_Doe_\d+$/);
  });

  it('sends a suspended account back to the login page with the reason, and signs nobody in', async () => {
    const jar = new CookieJar();
    expect(await signInWithGoogle(jar, 'google-sub-banned')).toBe('/confirm-account');
    await server.deps.db.update(users).set({ bannedAt: new Date() }).where(eq(users.googleId, 'google-sub-banned'));
    const again = new CookieJar();
    expect(await signInWithGoogle(again, 'google-sub-banned')).toBe('/login?error=account_suspended');
    expect(again.get(server.url, REFRESH_COOKIE_NAME)).toBeUndefined();
  });

  it('asks an account with two-factor on for its second factor before any session', async () => {
    expect(await signInWithGoogle(new CookieJar(), 'google-sub-2fa')).toBe('/confirm-account');
    const [account] = await server.deps.db
      .update(users)
      .set({ twoFactorAt: new Date() })
      .where(eq(users.googleId, 'google-sub-2fa'))
      .returning();
    const [code] = await recoveryCodeStore(server.deps.db, server.deps.secrets.jwtSecret).regenerate(account!.id);
    const jar = new CookieJar();
    expect(await signInWithGoogle(jar, 'google-sub-2fa')).toBe('/login?second_factor=1');
    expect(jar.get(server.url, REFRESH_COOKIE_NAME)).toBeUndefined();
    const post = (path: string, json: unknown = {}) =>
      browse(jar, `${server.url}${path}`, { method: 'POST', body: JSON.stringify(json), headers: { 'content-type': 'application/json' } });
    const resumed = (await (await post('/api/auth/second-factor/resume')).json()) as {
      secondFactor: { pending: string; methods: string[] };
    };
    expect(resumed.secondFactor.methods).toEqual(['recovery']);
    // The note's cookie works once.
    expect((await post('/api/auth/second-factor/resume')).status).toBe(401);
    const done = await post('/api/auth/second-factor', { pending: resumed.secondFactor.pending, recoveryCode: code });
    expect(done.status).toBe(200);
    expect(jar.get(server.url, REFRESH_COOKIE_NAME)).toBeTruthy();
  });

  it('refuses a callback whose state this browser did not start', async () => {
    const attacker = new CookieJar();
    const start = await browse(attacker, `${server.url}/api/auth/google`);
    const state = new URL(start.headers.get('location')!).searchParams.get('state');
    // The victim's browser never started a sign-in, so it has no state cookie.
    const victim = new CookieJar();
    const res = await browse(victim, `${server.url}/api/auth/google/callback?code=stolen&state=${state}`);
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/login?error=google_sign_in_failed');
    expect(victim.get(server.url, REFRESH_COOKIE_NAME)).toBeUndefined();
    // Nor does a state the browser's own cookie does not carry.
    const forged = await browse(attacker, `${server.url}/api/auth/google/callback?code=stolen&state=not-${state}`);
    expect(forged.headers.get('location')).toBe('/login?error=google_sign_in_failed');
  });

  it('sends someone who declines on the consent screen back to the login page', async () => {
    const jar = new CookieJar();
    await browse(jar, `${server.url}/api/auth/google`);
    const res = await browse(jar, `${server.url}/api/auth/google/callback?error=access_denied&error_description=declined`);
    expect(res.headers.get('location')).toBe('/login?error=google_sign_in_failed');
  });
});

describe('Google sign-in without credentials', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('answers 503 with a readable page that says so and links back to sign in', async () => {
    const res = await server.api('/api/auth/google');
    expect(res.status).toBe(503);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const page = await res.text();
    expect(page).toContain(ERR.googleNotConfigured);
    expect(page).toContain('href="/login"');
    // Parley's look, not a dark unbranded page: the light background, the mark and the name leading home.
    expect(page).toMatch(/body \{[^}]*background: #f8fafc/);
    expect(page).toMatch(/<a href="\/"><svg[^]*<\/svg>Parley<\/a>/);
  });

  it('answers 503 with the reason to a signed-in account that asks to link Google', async () => {
    const signedUp = await server.signup({ username: 'nolinkhere', password: 'correct horse battery', age: 30, gender: 'other' });
    const { accessToken } = (await signedUp.json()) as { accessToken: string };
    const res = await server.api('/api/auth/google/link', { method: 'POST', headers: { authorization: `Bearer ${accessToken}` } });
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ code: 'google_not_configured', message: ERR.googleNotConfigured });
  });
});
