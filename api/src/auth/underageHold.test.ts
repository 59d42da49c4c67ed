import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERR } from '@parley/contract/errors';
import { SAFETY_ERR } from '@parley/contract/safety';
import { accessTokens, startTestServer, type TestServer } from '../testing/server.ts';
import { insertAccount, tokenUserOf } from '../db/accounts.ts';
import { recordDevice } from '../db/devices.ts';

const password = 'correct horse battery';
let seq = 0;
const fresh = (prefix: string) => `${prefix}${Date.now().toString(36).slice(-5)}${seq++}`;
const print = (n: number) => `print${String(n).padStart(12, '0')}`;

describe('an age under 18 holds any age from the same browser for a day', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ TRUST_PROXY: 'true', SIGNUPS_PER_ADDRESS: '1000' });
  });
  afterAll(() => server.close());

  const signup = (age: number, from: string, extra: { fingerprint?: string; cookie?: string } = {}) =>
    server.signup(
      { username: fresh('u'), password, age, gender: 'male', ...(extra.fingerprint ? { fingerprint: extra.fingerprint } : {}) },
      { headers: { 'x-forwarded-for': from, ...(extra.cookie ? { cookie: extra.cookie } : {}) } },
    );
  const deviceCookieOf = (res: Response) =>
    res.headers
      .getSetCookie()
      .find((c) => c.startsWith('parley_device='))
      ?.split(';')[0];

  it('at sign-up: 17 then 18 is refused from the same browser (cookie, or fingerprint on the same network), not from another', async () => {
    const minor = await signup(17, '203.0.113.60', { fingerprint: print(1) });
    expect(minor.status).toBe(400);
    const device = deviceCookieOf(minor);
    expect(device).toBeDefined();

    // The same browser (its cookie), even from another network with another fingerprint.
    const again = await signup(18, '198.51.100.61', { fingerprint: print(2), cookie: device });
    expect(again.status).toBe(403);
    expect(await again.json()).toEqual({ message: SAFETY_ERR.recentUnderage, code: 'recently_underage' });
    // A private window: no cookie, the same fingerprint on the same network.
    expect((await signup(18, '203.0.113.60', { fingerprint: print(1) })).status).toBe(403);
    // Someone else: the same network, another device; or the same kind of phone elsewhere.
    expect((await signup(18, '203.0.113.60', { fingerprint: print(3) })).status).toBe(201);
    expect((await signup(18, '198.51.100.62', { fingerprint: print(1) })).status).toBe(201);
  });

  it('at the age gate (confirm account): 17 then 18 from the same browser is refused for another account', async () => {
    const unverified = async () => {
      const account = await insertAccount(server.deps.db, { username: fresh('g'), googleId: fresh('google') });
      const token = await accessTokens(server.deps.secrets.jwtSecret).sign(tokenUserOf(account));
      return {
        account,
        verify: (age: number, from: string, fingerprint?: string) =>
          server.api('/api/user/verify-info', {
            method: 'POST',
            headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': from },
            json: { age, gender: 'female', ...(fingerprint ? { fingerprint } : {}) },
          }),
      };
    };
    // The first account signed in from a browser (its device cookie), then said 17.
    const device = 'd'.repeat(22);
    const first = await unverified();
    await recordDevice(server.deps.db, device, first.account.id);
    const minor = await first.verify(17, '203.0.113.70', print(7));
    expect(minor.status).toBe(403);
    expect(((await minor.json()) as { message: string }).message).toBe(ERR.underage);

    // Another Google account in the same private window (same fingerprint and network).
    const second = await unverified();
    const refused = await second.verify(18, '203.0.113.70', print(7));
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { message: string }).message).toBe(SAFETY_ERR.recentUnderage);

    // Another account that signed in from that browser, from another network with another fingerprint.
    const third = await unverified();
    await recordDevice(server.deps.db, device, third.account.id);
    expect((await third.verify(18, '198.51.100.72', print(8))).status).toBe(403);

    // Someone else entirely.
    expect((await (await unverified()).verify(18, '198.51.100.73', print(9))).status).toBe(200);
  });
});
