import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGIN_FAILURES_PER_USERNAME } from '@parley/contract/constants';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { proofFrom } from '../testing/proofOfWork.ts';
import { knownDevices } from './knownDevices.ts';

const password = 'correct horse battery';
let seq = 0;
const fresh = (prefix: string) => `${prefix}${Date.now().toString(36).slice(-5)}${seq++}`;

describe('a known device', () => {
  let server: TestServer;
  beforeAll(async () => {
    // Behind a trusted proxy, so the owner and the attacker speak from addresses of their own.
    server = await startTestServer({ TRUST_PROXY: 'true' });
  });
  afterAll(() => server.close());

  let address = 0;
  const anotherAddress = () => `10.7.${address >> 8}.${address++ & 255}`;
  /** A sign-in with a solved proof of work (as the form sends it once asked), from `from`, with these cookies. */
  const login = async (username: string, pass: string, from = anotherAddress(), cookie?: string) => {
    const headers = { 'x-forwarded-for': from, ...(cookie ? { cookie } : {}) };
    return server.api('/api/auth/login', {
      method: 'POST',
      headers,
      json: { username, password: pass, altcha: await proofFrom(server.url, { headers }) },
    });
  };
  const knownCookieOf = (res: Response) =>
    res.headers
      .getSetCookie()
      .find((c) => c.startsWith('parley_known_'))
      ?.split(';')[0];

  /** The owner signs up at home, and an attacker then guesses until the username is locked. */
  async function lockedAccount() {
    const username = fresh('Owner');
    const home = anotherAddress();
    const signup = await server.signup({ username, password, age: 30, gender: 'female' }, { headers: { 'x-forwarded-for': home } });
    expect(signup.status).toBe(201);
    const known = knownCookieOf(signup);
    expect(known).toBeDefined();
    expect(signup.headers.getSetCookie().find((c) => c.startsWith('parley_known_'))).toMatch(/HttpOnly/i);
    for (let i = 0; i < LOGIN_FAILURES_PER_USERNAME; i++) expect((await login(username, 'attacker guess')).status).toBe(401);
    expect((await login(username, 'attacker guess')).status).toBe(429);
    return { username, home, known: known! };
  }

  it("lets the owner's typo after an attacker's lockout be just a typo, on a browser that signed in before", async () => {
    const { username, home, known } = await lockedAccount();
    expect((await login(username, 'correct horse batery', home, known)).status).toBe(401);
    const signedIn = await login(username, password, home, known);
    expect(signedIn.status).toBe(200);
    // Signing in renews the cookie; the attacker is still locked out.
    expect(knownCookieOf(signedIn)).toBeDefined();
    expect((await login(username, 'attacker guess')).status).toBe(429);
  });

  it('does not exempt a browser without the cookie, nor with a forged one or one issued for another account', async () => {
    const { username, home, known } = await lockedAccount();
    const [name, value] = known.split('=') as [string, string];
    const forged = `${name}=${value.slice(0, -2)}${value.endsWith('AA') ? 'BB' : 'AA'}`;
    // Another account's genuine cookie, renamed to this account's cookie name.
    const other = await lockedAccount();
    const borrowed = `${name}=${other.known.split('=')[1]}`;
    for (const cookie of [undefined, forged, borrowed]) {
      expect((await login(username, 'correct horse batery', home, cookie)).status).toBe(429);
    }
  });

  it('keeps a failure limit of its own', async () => {
    const { username, home, known } = await lockedAccount();
    for (let i = 0; i < LOGIN_FAILURES_PER_USERNAME; i++) expect((await login(username, 'typo again', home, known)).status).toBe(401);
    expect((await login(username, password, home, known)).status).toBe(429);
  });

  it('refuses an expired cookie and one for another username', () => {
    let now = Date.parse('2026-01-01T00:00:00Z');
    const devices = knownDevices('secret', () => now);
    const cookie = devices.issue('alice');
    expect(devices.verify('alice', cookie.value)).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(devices.verify('bob', cookie.value)).toBeUndefined();
    expect(devices.nameFor('bob')).not.toBe(cookie.name);
    expect(devices.verify('alice', 'garbage')).toBeUndefined();
    now += 91 * 24 * 60 * 60 * 1000;
    expect(devices.verify('alice', cookie.value)).toBeUndefined();
  });
});
