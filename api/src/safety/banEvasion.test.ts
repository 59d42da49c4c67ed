import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Challenge } from 'altcha-lib';
import { chatEvents } from '@parley/contract/matchmaking';
import { SAFETY_ERR, type ModerationCase } from '@parley/contract/safety';
import type { TokenUser } from '@parley/contract/auth';
import { users } from '../db/schema.ts';
import { SHARED_SIGNAL_ACCOUNTS } from '../db/accountSignals.ts';
import { proofFrom, solveProof } from '../testing/proofOfWork.ts';
import { next, search, socketTestServer } from '../testing/socketClients.ts';

// Behind a trusted proxy, so each person can speak from an address of their own (X-Forwarded-For).
const t = socketTestServer({ SIGNUPS_PER_ADDRESS: '1000', TRUST_PROXY: 'true' });
const PASSWORD = 'a long enough password';
let seq = 0;
const fresh = (p: string) => `${p}${Date.now().toString(36).slice(-4)}${seq++}`;
/** A device fingerprint as the page computes it (an opaque hash). */
const fingerprint = () => `fp${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}`.slice(0, 32);
const from = (address: string) => ({ 'x-forwarded-for': address });
const tokenUser = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as TokenUser;

/** A sign-up as a private window sends it: no cookies, the proof of work of the challenge `purpose` asks for. */
async function signup(address: string, print: string | undefined, purpose: 'signup' | 'login' = 'signup') {
  const query = new URLSearchParams({ purpose, ...(print ? { fingerprint: print } : {}) });
  const challenge = (await (await fetch(`${t.server().url}/api/auth/challenge?${query}`, { headers: from(address) })).json()) as Challenge;
  const username = fresh('u');
  const res = await t.server().api('/api/auth/signup', {
    method: 'POST',
    headers: from(address),
    json: {
      username,
      password: PASSWORD,
      age: 30,
      gender: 'male',
      altcha: await solveProof(challenge),
      ...(print ? { fingerprint: print } : {}),
    },
  });
  const body = (await res.json()) as { accessToken?: string; code?: string; message?: string };
  return { status: res.status, body, username, challenge, user: body.accessToken ? tokenUser(body.accessToken) : undefined };
}

async function moderator() {
  const m = await signup('198.18.0.1', fingerprint());
  await t.server().deps.db.update(users).set({ role: 'moderator', twoFactorAt: new Date() }).where(eq(users.id, m.user!.userId));
  const headers = { authorization: `Bearer ${m.body.accessToken}` };
  return {
    ban: (userId: string) =>
      t.server().api('/api/moderation/decisions', { method: 'POST', headers, json: { userId, action: 'ban', rule: 'harassment' } }),
    caseOf: async (userId: string) =>
      (await (await t.server().api(`/api/moderation/users/${userId}`, { headers })).json()) as ModerationCase,
  };
}

const isHard = (c: Challenge) => c.parameters.data?.work === 'hard';

describe('a ban holds beyond the cookie', () => {
  it('a sign-up from a banned account’s address, without its cookie, pays the hard proof of work and starts restricted', async () => {
    const mod = await moderator();
    const trollPrint = fingerprint();
    const troll = await signup('203.0.113.10', trollPrint);
    expect(troll.status).toBe(201);
    expect((await mod.ban(troll.user!.userId)).status).toBe(201);

    // A private window on the same network (another fingerprint: the address alone links it).
    const evaderPrint = fingerprint();
    const easy = await signup('203.0.113.10', evaderPrint, 'login');
    expect(isHard(easy.challenge)).toBe(false);
    expect(easy.status).toBe(400);
    expect(easy.body).toEqual({ message: SAFETY_ERR.harderProof, code: 'proof_harder' });

    const evader = await signup('203.0.113.10', evaderPrint);
    expect(isHard(evader.challenge)).toBe(true);
    expect(evader.status).toBe(201);

    // Restricted: no video chat…
    const socket = await t.open(evader.user!, { token: evader.body.accessToken });
    const refused = next<{ event: string; message: string }>(socket, chatEvents.error);
    socket.emit(chatEvents.start, search({ roomType: 'videoChat' }));
    expect(await refused).toMatchObject({ event: chatEvents.start, message: SAFETY_ERR.restrictedVideo });
    // …and the moderator sees why, and with whom the account is linked.
    const kase = await mod.caseOf(evader.user!.userId);
    expect(kase.restricted).toBe(true);
    expect(kase.linkedAccounts).toEqual([
      expect.objectContaining({ user: expect.objectContaining({ userId: troll.user!.userId, banned: true }), linkedBy: ['network'] }),
    ]);
  });

  it('links an IPv6 sign-up by its /64', async () => {
    const mod = await moderator();
    const troll = await signup('2001:db8:77:1::10', fingerprint());
    await mod.ban(troll.user!.userId);
    const evader = await signup('2001:db8:77:1:abcd::99', fingerprint(), 'login');
    expect(evader.body.code).toBe('proof_harder');
    expect((await signup('2001:db8:77:2::10', fingerprint(), 'login')).status).toBe(201);
  });

  it('the same device fingerprint on another address pays the hard proof of work and starts restricted', async () => {
    const mod = await moderator();
    const print = fingerprint();
    const troll = await signup('203.0.113.20', print);
    await mod.ban(troll.user!.userId);

    expect((await signup('198.51.100.20', print, 'login')).body.code).toBe('proof_harder');
    const evader = await signup('198.51.100.20', print);
    expect(isHard(evader.challenge)).toBe(true);
    expect(evader.status).toBe(201);
    const kase = await mod.caseOf(evader.user!.userId);
    expect(kase.restricted).toBe(true);
    expect(kase.linkedAccounts.map((l) => [l.user.userId, l.linkedBy])).toEqual([[troll.user!.userId, ['device']]]);
  });

  it('a fingerprint or network many accounts share (one phone model, a carrier’s NAT) links nobody to a ban', async () => {
    const mod = await moderator();
    const common = fingerprint();
    const troll = await signup('203.0.113.40', common);
    for (let i = 1; i < SHARED_SIGNAL_ACCOUNTS; i++) expect((await signup(`198.51.100.${100 + i}`, common)).status).toBe(201);
    await mod.ban(troll.user!.userId);
    const stranger = await signup('192.0.2.99', common);
    expect(isHard(stranger.challenge)).toBe(false);
    expect(stranger.status).toBe(201);
    expect((await mod.caseOf(stranger.user!.userId)).restricted).toBe(false);
  });

  it('a different address and device is unaffected', async () => {
    const mod = await moderator();
    const troll = await signup('203.0.113.30', fingerprint());
    await mod.ban(troll.user!.userId);
    const other = await signup('198.51.100.30', fingerprint(), 'login');
    expect(isHard(other.challenge)).toBe(false);
    expect(other.status).toBe(201);
    const kase = await mod.caseOf(other.user!.userId);
    expect(kase).toMatchObject({ restricted: false, linkedAccounts: [] });
    const socket = await t.open(other.user!, { token: other.body.accessToken });
    const searching = next(socket, chatEvents.searching);
    socket.emit(chatEvents.start, search({ roomType: 'videoChat' }));
    await searching;
  });

  it('lifts the restriction once the account has a clean history', async () => {
    const mod = await moderator();
    const troll = await signup('203.0.113.40', fingerprint());
    await mod.ban(troll.user!.userId);
    const evader = await signup('203.0.113.40', fingerprint());
    expect((await mod.caseOf(evader.user!.userId)).restricted).toBe(true);
    const db = t.server().deps.db;
    // A week on, but too few real chats: still restricted.
    await db
      .update(users)
      .set({ restrictedAt: new Date(Date.now() - 8 * 24 * 3600 * 1000), realChats: 3 })
      .where(eq(users.id, evader.user!.userId));
    expect((await mod.caseOf(evader.user!.userId)).restricted).toBe(true);
    await db.update(users).set({ realChats: 12 }).where(eq(users.id, evader.user!.userId));
    expect((await mod.caseOf(evader.user!.userId)).restricted).toBe(false);
  });

  it('refuses a malformed fingerprint with a message', async () => {
    const res = await t.server().api('/api/auth/signup', {
      method: 'POST',
      headers: from('198.51.100.50'),
      json: {
        username: fresh('u'),
        password: PASSWORD,
        age: 30,
        gender: 'male',
        altcha: await proofFrom(t.server().url),
        fingerprint: 'not a hash!',
      },
    });
    expect(res.status).toBe(400);
    expect(JSON.stringify(await res.json())).toContain('device fingerprint');
    const challenge = await fetch(`${t.server().url}/api/auth/challenge?fingerprint=${'x'.repeat(500)}`);
    expect(challenge.status).toBe(400);
  });
});
