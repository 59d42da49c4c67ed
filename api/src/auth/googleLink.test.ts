import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import { and, eq } from 'drizzle-orm';
import type { FactorsOverview } from '@parley/contract/factors';
import { REFRESH_COOKIE_NAME } from '@parley/contract/constants';
import { googleStandIn, type GooglePerson } from '../testing/googleStandIn.ts';
import { browse, CookieJar, throughGoogle } from '../testing/googleBrowser.ts';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { notifications, passkeys, users } from '../db/schema.ts';

const CLIENT_ID = 'parley-link-client';
const CLIENT_SECRET = 'a-client-secret-long-enough-for-hs256-signing-111';
const PASSWORD = 'correct horse battery';
const STATE_COOKIE = 'parley_oauth_state';

const people: Record<string, GooglePerson> = {
  'link-sub-1': { name: 'Lin Kay', email: 'lin@example.com' },
  'link-sub-taken': { name: 'Taken Person', email: 'taken@example.com' },
  'link-sub-2fa': { name: 'Two Factor', email: 'two@example.com' },
  'link-sub-idor': { name: 'Ida Orr', email: 'ida@example.com' },
  'link-sub-state': { name: 'Stat E', email: 'state@example.com' },
  'link-sub-only': { name: 'Only Google', email: 'only@example.com' },
  'link-sub-unlink': { name: 'Un Link', email: 'unlink@example.com' },
};

describe('linking Google to a signed-in account', () => {
  let server: TestServer;
  let idp: Awaited<ReturnType<typeof googleStandIn>>;
  let n = 0;

  beforeAll(async () => {
    idp = await googleStandIn(people);
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

  /** A password account signed up in its own browser (jar), with its access token. */
  async function passwordAccount() {
    const jar = new CookieJar();
    const username = `link${process.pid % 1000}x${++n}`;
    const res = await server.signup(
      { username, password: PASSWORD, age: 30, gender: 'other' },
      { headers: { 'x-forwarded-for': `203.0.113.${n}` } },
    );
    expect(res.status).toBe(201);
    jar.take(server.url, res);
    const { accessToken } = (await res.json()) as { accessToken: string };
    return { jar, token: accessToken, id: decodeJwt(accessToken).userId as string, username };
  }

  const authed = (token: string, init: RequestInit = {}): RequestInit => ({
    ...init,
    headers: { ...(init.headers as Record<string, string>), authorization: `Bearer ${token}` },
  });

  /** POST /api/auth/google/link from this browser: the consent address it answers. */
  async function startLink(jar: CookieJar, token: string): Promise<string> {
    const res = await browse(jar, `${server.url}/api/auth/google/link`, authed(token, { method: 'POST' }));
    expect(res.status).toBe(200);
    const { url } = (await res.json()) as { url: string };
    expect(new URL(url).origin).toBe(idp.issuer);
    expect(jar.get(server.url, STATE_COOKIE)).toBeTruthy();
    return url;
  }

  async function signInWithGoogle(jar: CookieJar, sub: string): Promise<string> {
    const res = await browse(jar, `${server.url}/api/auth/google`);
    expect(res.status).toBe(302);
    return throughGoogle(jar, server.url, res.headers.get('location')!, sub);
  }

  const googleIdOf = async (id: string) =>
    (await server.deps.db.select({ googleId: users.googleId }).from(users).where(eq(users.id, id)))[0]!.googleId;

  it('links Google to a password account; Google then signs in to that same account', async () => {
    const me = await passwordAccount();
    expect(await throughGoogle(me.jar, server.url, await startLink(me.jar, me.token), 'link-sub-1')).toBe('/settingboard?google=linked');
    // The state was used once and is gone; the browser is still signed in as before.
    expect(me.jar.get(server.url, STATE_COOKIE)).toBeUndefined();
    expect(me.jar.get(server.url, REFRESH_COOKIE_NAME)).toBeTruthy();

    const factors = (await (await server.api('/api/auth/factors', authed(me.token))).json()) as FactorsOverview;
    expect(factors.google).toEqual({ email: 'lin@example.com' });
    // The notice is sent beside the redirect, not before it: wait for it to be written.
    const told = () =>
      server.deps.db
        .select()
        .from(notifications)
        .where(and(eq(notifications.userId, me.id), eq(notifications.kind, 'signIn')));
    await expect
      .poll(async () => (await told()).map((t) => t.text).join('\n'), { timeout: 15_000 })
      .toContain('Google sign-in (lin@example.com) was added to your account');

    const elsewhere = new CookieJar();
    expect(await signInWithGoogle(elsewhere, 'link-sub-1')).toBe('/dashboard');
    const info = await browse(elsewhere, `${server.url}/api/auth/info`);
    const token = decodeJwt(((await info.json()) as { accessToken: string }).accessToken);
    expect(token).toMatchObject({ userId: me.id, username: me.username });
  });

  it('refuses a Google account that already signs in to another Parley account, and changes nothing', async () => {
    expect(await signInWithGoogle(new CookieJar(), 'link-sub-taken')).toBe('/confirm-account');
    const me = await passwordAccount();
    expect(await throughGoogle(me.jar, server.url, await startLink(me.jar, me.token), 'link-sub-taken')).toBe(
      '/settingboard?google=google_linked_elsewhere',
    );
    expect(await googleIdOf(me.id)).toBeNull();
    const factors = (await (await server.api('/api/auth/factors', authed(me.token))).json()) as FactorsOverview;
    expect(factors.google).toBeNull();
  });

  it('still asks the second factor at a Google sign-in after linking an account that has two-factor on', async () => {
    const me = await passwordAccount();
    await server.deps.db.update(users).set({ twoFactorAt: new Date() }).where(eq(users.id, me.id));
    // Linking is done signed in: no second factor asked.
    expect(await throughGoogle(me.jar, server.url, await startLink(me.jar, me.token), 'link-sub-2fa')).toBe('/settingboard?google=linked');
    const jar = new CookieJar();
    expect(await signInWithGoogle(jar, 'link-sub-2fa')).toBe('/login?second_factor=1');
    expect(jar.get(server.url, REFRESH_COOKIE_NAME)).toBeUndefined();
  });

  it("links only to the sign-in that started it: another account's browser, or a sign-out, links nothing", async () => {
    const victim = await passwordAccount();
    const attacker = await passwordAccount();
    // The attacker starts a link, then carries its state into the victim's browser (signed in as the victim).
    const consent = await startLink(attacker.jar, attacker.token);
    const carried = new CookieJar();
    carried.take(
      server.url,
      new Response(null, { headers: [['set-cookie', `${STATE_COOKIE}=${attacker.jar.get(server.url, STATE_COOKIE)}`]] }),
    );
    carried.take(
      server.url,
      new Response(null, { headers: [['set-cookie', `${REFRESH_COOKIE_NAME}=${victim.jar.get(server.url, REFRESH_COOKIE_NAME)}`]] }),
    );
    expect(await throughGoogle(carried, server.url, consent, 'link-sub-idor')).toBe('/settingboard?google=google_link_signed_out');
    expect(await googleIdOf(victim.id)).toBeNull();
    expect(await googleIdOf(attacker.id)).toBeNull();

    // A link whose sign-in ended before it came back links nothing either.
    const consent2 = await startLink(victim.jar, victim.token);
    expect((await browse(victim.jar, `${server.url}/api/auth/logout`, { method: 'POST' })).status).toBe(204);
    expect(await throughGoogle(victim.jar, server.url, consent2, 'link-sub-idor')).toBe('/settingboard?google=google_link_signed_out');
    expect(await googleIdOf(victim.id)).toBeNull();

    // Starting needs a signed-in caller.
    expect((await server.api('/api/auth/google/link', { method: 'POST' })).status).toBe(401);
  });

  it('refuses a forged, a replayed and an expired state', async () => {
    const me = await passwordAccount();
    // Forged: a state this browser's cookie does not carry.
    const consent = new URL(await startLink(me.jar, me.token));
    const forged = await browse(me.jar, `${server.url}/api/auth/google/callback?code=x&state=not-${consent.searchParams.get('state')}`);
    expect(forged.headers.get('location')).toBe('/settingboard?google=google_link_failed');

    // Expired: a correctly signed state whose time is up (signed as the server signs it), with a real code.
    const consent2 = await startLink(me.jar, me.token);
    const [payload] = me.jar.get(server.url, STATE_COOKIE)!.split('.');
    const saved = JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8')) as { e: number };
    const stale = Buffer.from(JSON.stringify({ ...saved, e: Date.now() - 1000 })).toString('base64url');
    const key = createHmac('sha256', server.deps.secrets.jwtSecret).update('parley oauth state').digest();
    const mac = createHmac('sha256', key).update(stale).digest('base64url');
    me.jar.take(server.url, new Response(null, { headers: [['set-cookie', `${STATE_COOKIE}=${stale}.${mac}`]] }));
    expect(await throughGoogle(me.jar, server.url, consent2, 'link-sub-state')).toBe('/settingboard?google=google_link_failed');
    expect(await googleIdOf(me.id)).toBeNull();

    // Replayed: the callback that worked, sent again with its state cookie put back, is refused.
    const consent3 = await startLink(me.jar, me.token);
    const state = me.jar.get(server.url, STATE_COOKIE)!;
    let callback = '';
    expect(await throughGoogle(me.jar, server.url, consent3, 'link-sub-state', (url) => (callback = url))).toBe(
      '/settingboard?google=linked',
    );
    await server.deps.db.update(users).set({ googleId: null, googleEmail: null }).where(eq(users.id, me.id));
    me.jar.take(server.url, new Response(null, { headers: [['set-cookie', `${STATE_COOKIE}=${state}`]] }));
    const replay = await browse(me.jar, callback);
    expect(replay.headers.get('location')).toBe('/settingboard?google=google_link_failed');
    expect(await googleIdOf(me.id)).toBeNull();
  });

  it('sends someone who declines on the consent screen back to Settings, linking nothing', async () => {
    const me = await passwordAccount();
    await startLink(me.jar, me.token);
    const res = await browse(me.jar, `${server.url}/api/auth/google/callback?error=access_denied&error_description=declined`);
    expect(res.headers.get('location')).toBe('/settingboard?google=google_link_failed');
    expect(await googleIdOf(me.id)).toBeNull();
  });

  it('unlinks only while another way in remains', async () => {
    // Made with Google: no password, no passkey.
    const jar = new CookieJar();
    expect(await signInWithGoogle(jar, 'link-sub-only')).toBe('/confirm-account');
    const token = ((await (await browse(jar, `${server.url}/api/auth/info`)).json()) as { accessToken: string }).accessToken;
    const refused = await server.api('/api/auth/google/link', authed(token, { method: 'DELETE' }));
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({ code: 'google_only_way_in' });
    expect(await googleIdOf(decodeJwt(token).userId as string)).toBe('link-sub-only');

    // A password account that linked Google may drop it.
    const me = await passwordAccount();
    expect(await throughGoogle(me.jar, server.url, await startLink(me.jar, me.token), 'link-sub-unlink')).toBe(
      '/settingboard?google=linked',
    );
    expect((await server.api('/api/auth/google/link', authed(me.token, { method: 'DELETE' }))).status).toBe(204);
    expect(await googleIdOf(me.id)).toBeNull();
    // …and the Google account no longer opens it: signing in with it makes a new account.
    expect(await signInWithGoogle(new CookieJar(), 'link-sub-unlink')).toBe('/confirm-account');
    expect((await server.deps.db.select().from(passkeys).where(eq(passkeys.userId, me.id))).length).toBe(0);
  });

  it('limits how often an account starts a link', async () => {
    const me = await passwordAccount();
    const answers: number[] = [];
    for (let i = 0; i < 11; i++)
      answers.push((await browse(me.jar, `${server.url}/api/auth/google/link`, authed(me.token, { method: 'POST' }))).status);
    expect(answers.slice(0, 10).every((s) => s === 200)).toBe(true);
    expect(answers[10]).toBe(429);
  });
});
