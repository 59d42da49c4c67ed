import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { io as ioClient } from 'socket.io-client';
import { authEvents } from '@parley/contract/auth';
import { SAFETY_ERR, safetyEvents, type AppealView, type BanNotice, type Warning } from '@parley/contract/safety';
import { notifications, reports, users } from '../db/schema.ts';
import type { NotificationPage } from '@parley/contract/notifications';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { next, socketTestServer } from '../testing/socketClients.ts';
import { REALTIME_PROTOCOL } from '@parley/contract/protocol';

// Every person here signs up from the same address.
const t = socketTestServer({ SIGNUPS_PER_ADDRESS: '1000' });
const PASSWORD = 'a long enough password';
const fresh = (p: string) => `${p}${Math.random().toString(36).slice(2, 9)}`;

/** A person who signed up through the API, as a browser: its device cookie is kept. */
async function browserUser(server: TestServer = t.server(), device?: string) {
  const username = fresh('u');
  const res = await server.signup(
    { username, password: PASSWORD, age: 30, gender: 'female' },
    { headers: device ? { cookie: device } : {} },
  );
  const body = (await res.json()) as { accessToken?: string; message?: string };
  const deviceCookie =
    device ??
    res.headers
      .getSetCookie()
      .find((c) => c.startsWith('parley_device='))
      ?.split(';')[0];
  const userId = body.accessToken
    ? (JSON.parse(Buffer.from(body.accessToken.split('.')[1]!, 'base64url').toString()) as { userId: string }).userId
    : '';
  return { res, status: res.status, body, username, userId, token: body.accessToken ?? '', device: deviceCookie };
}

async function moderator(server: TestServer = t.server()) {
  const m = await browserUser(server);
  await server.deps.db.update(users).set({ role: 'moderator', twoFactorAt: new Date() }).where(eq(users.id, m.userId));
  const decide = (json: unknown) =>
    server.api('/api/moderation/decisions', { method: 'POST', json, headers: { authorization: `Bearer ${m.token}` } });
  return { ...m, decide, headers: { authorization: `Bearer ${m.token}` } };
}

const login = (username: string, server: TestServer = t.server()) =>
  server.api('/api/auth/login', { method: 'POST', json: { username, password: PASSWORD } });

describe('bans and suspensions', () => {
  it('end the user’s sockets, refuse sign-in with the rule, and refuse new accounts from the same browser', async () => {
    const troll = await browserUser();
    expect(troll.status).toBe(201);
    expect(troll.device).toMatch(/^parley_device=/);
    const socket = ioClient(t.server().url, {
      path: '/socket.io',
      transports: ['websocket'],
      reconnection: false,
      auth: { token: troll.token, protocol: REALTIME_PROTOCOL },
      query: { userId: troll.userId },
    });
    t.sockets.push(socket);
    await next(socket, 'connect');
    const ended = next<{ reason: string }>(socket, authEvents.sessionEnd);

    const mod = await moderator();
    const decided = await mod.decide({ userId: troll.userId, action: 'ban', rule: 'harassment', note: 'insulted three people' });
    expect(decided.status).toBe(201);
    expect(await ended).toEqual({ reason: 'account_suspended' });

    const refused = await login(troll.username);
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { message: string }).message).toBe(
      'This account is banned for breaking the rule “No harassment or bullying”. You can appeal once from the sign-in screen.',
    );
    // The same browser cannot start over with a new account; another browser can.
    const again = await browserUser(t.server(), troll.device);
    expect(again.status).toBe(403);
    expect(again.body.message).toBe(SAFETY_ERR.deviceBanned);
    expect((await browserUser()).status).toBe(201);
    // Validation: a ban needs a rule; a suspension its length.
    expect((await mod.decide({ userId: troll.userId, action: 'ban' })).status).toBe(400);
    expect((await mod.decide({ userId: troll.userId, action: 'suspend', rule: 'spam' })).status).toBe(400);
    expect((await mod.decide({ userId: mod.userId, action: 'warn', rule: 'spam' })).status).toBe(403);
  });

  it('tell every socket of the user the rule and where to appeal, before disconnecting it', async () => {
    const u = await browserUser();
    const open = async () => {
      const socket = ioClient(t.server().url, {
        path: '/socket.io',
        transports: ['websocket'],
        reconnection: false,
        auth: { token: u.token, protocol: REALTIME_PROTOCOL },
        query: { userId: u.userId },
      });
      t.sockets.push(socket);
      await next(socket, 'connect');
      // The ban's events in the order they came, up to the disconnect.
      const heard: string[] = [];
      socket.onAny((event: string) => {
        if (event === safetyEvents.banned || event === authEvents.sessionEnd) heard.push(event);
      });
      const disconnected = new Promise<string[]>((resolve) => socket.on('disconnect', () => resolve(heard)));
      return { notice: next<BanNotice>(socket, safetyEvents.banned), disconnected };
    };
    const tabs = [await open(), await open()];
    const mod = await moderator();
    expect((await mod.decide({ userId: u.userId, action: 'suspend', rule: 'spam', hours: 24 })).status).toBe(201);
    for (const tab of tabs) {
      const notice = await tab.notice;
      expect(notice).toEqual({
        message: expect.stringMatching(/^This account is suspended until .+ UTC for breaking the rule “No scams, spam or advertising”\./),
        rule: 'spam',
        ruleTitle: 'No scams, spam or advertising',
        until: expect.any(String),
        appealPath: '/appeal',
      });
      expect(Date.parse(notice.until!)).toBeGreaterThan(Date.now() + 23 * 3600 * 1000);
      expect(await tab.disconnected).toEqual([safetyEvents.banned, authEvents.sessionEnd]);
    }
  });

  it('a suspension ends on its date; until then sign-in says when', async () => {
    const u = await browserUser();
    const mod = await moderator();
    expect((await mod.decide({ userId: u.userId, action: 'suspend', rule: 'spam', hours: 24 })).status).toBe(201);
    const refused = await login(u.username);
    expect(((await refused.json()) as { message: string }).message).toMatch(
      /^This account is suspended until .+ UTC for breaking the rule “No scams, spam or advertising”\./,
    );
    await t
      .server()
      .deps.db.update(users)
      .set({ suspendedUntil: new Date(Date.now() - 1000) })
      .where(eq(users.id, u.userId));
    expect((await login(u.username)).status).toBe(200);
    const [row] = await t.server().deps.db.select().from(users).where(eq(users.id, u.userId));
    expect(row!.bannedAt).toBeNull();
  });

  it('can be appealed once, from the sign-in screen; a granted appeal lifts the ban', async () => {
    const u = await browserUser();
    const mod = await moderator();
    await mod.decide({ userId: u.userId, action: 'ban', rule: 'bots' });
    const appeal = (password = PASSWORD) =>
      t.server().api('/api/safety/appeals', {
        method: 'POST',
        json: { username: u.username, password, text: 'I am a real person, I was typing fast.' },
      });
    expect((await appeal('wrong password')).status).toBe(401);
    expect((await appeal()).status).toBe(201);
    const twice = await appeal();
    expect(twice.status).toBe(409);
    expect(((await twice.json()) as { message: string }).message).toBe(SAFETY_ERR.appealUsed);
    const open = (await (await t.server().api('/api/moderation/appeals', { headers: mod.headers })).json()) as AppealView[];
    const mine = open.find((a) => a.user.userId === u.userId)!;
    expect(mine.action).toMatchObject({ action: 'ban', rule: 'bots' });
    expect(
      (
        await t
          .server()
          .api(`/api/moderation/appeals/${mine.id}`, { method: 'POST', json: { grant: true, note: 'fair' }, headers: mod.headers })
      ).status,
    ).toBe(204);
    expect((await login(u.username)).status).toBe(200);
    // Someone in good standing has nothing to appeal.
    expect((await appeal()).status).toBe(409);
  });

  it('a warning is shown to its user once, and only to them', async () => {
    const u = await browserUser();
    const other = await browserUser();
    const mod = await moderator();
    await mod.decide({ userId: u.userId, action: 'warn', rule: 'respect', note: 'Keep it friendly.' });
    const warnings = (await (
      await t.server().api('/api/safety/warnings', { headers: { authorization: `Bearer ${u.token}` } })
    ).json()) as Warning[];
    expect(warnings).toEqual([expect.objectContaining({ rule: 'respect', ruleTitle: 'Be kind, be real', note: 'Keep it friendly.' })]);
    const seen = (who: string) =>
      t.server().api(`/api/safety/warnings/${warnings[0]!.id}/seen`, { method: 'POST', headers: { authorization: `Bearer ${who}` } });
    expect((await seen(other.token)).status).toBe(404);
    expect((await seen(u.token)).status).toBe(204);
    expect(await (await t.server().api('/api/safety/warnings', { headers: { authorization: `Bearer ${u.token}` } })).json()).toEqual([]);
  });

  it('tells reporters their report was reviewed (not the sanction), the warned user why, and an appellant the answer', async () => {
    const [u, reporter, bystander] = [await browserUser(), await browserUser(), await browserUser()];
    const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
    const moderationNotes = async (token: string) =>
      ((await (await t.server().api('/api/notifications', { headers: bearer(token) })).json()) as NotificationPage).notificationList.filter(
        (n) => n.kind === 'moderation',
      );
    await t
      .server()
      .deps.db.insert(reports)
      .values({ reporterId: reporter.userId, reportedId: u.userId, context: 'profile', reason: 'spam' });
    const mod = await moderator();
    expect((await mod.decide({ userId: u.userId, action: 'warn', rule: 'respect' })).status).toBe(201);
    await expect
      .poll(() => moderationNotes(reporter.token))
      .toEqual([
        expect.objectContaining({ text: `We reviewed your report about ${u.username} and took action. Thank you.`, link: '/dashboard' }),
      ]);
    expect(JSON.stringify(await moderationNotes(reporter.token))).not.toContain('warn');
    await expect
      .poll(() => moderationNotes(u.token))
      .toEqual([expect.objectContaining({ text: 'A moderator warned you: Be kind, be real.' })]);
    expect(await moderationNotes(bystander.token)).toEqual([]);
    // A dismissed report says so; a report already resolved is not told twice.
    await t
      .server()
      .deps.db.insert(reports)
      .values({ reporterId: bystander.userId, reportedId: u.userId, context: 'profile', reason: 'other' });
    await mod.decide({ userId: u.userId, action: 'dismiss' });
    await expect
      .poll(() => moderationNotes(bystander.token))
      .toEqual([expect.objectContaining({ text: `We reviewed your report about ${u.username} and found no rule broken. Thank you.` })]);
    expect(await moderationNotes(reporter.token)).toHaveLength(1);
    // An appeal refused: its author hears the answer.
    await mod.decide({ userId: u.userId, action: 'ban', rule: 'spam' });
    await t
      .server()
      .api('/api/safety/appeals', { method: 'POST', json: { username: u.username, password: PASSWORD, text: 'Not spam, honest.' } });
    const open = (await (await t.server().api('/api/moderation/appeals', { headers: mod.headers })).json()) as AppealView[];
    const mine = open.find((a) => a.user.userId === u.userId)!;
    await t
      .server()
      .api(`/api/moderation/appeals/${mine.id}`, { method: 'POST', json: { grant: false, note: 'no' }, headers: mod.headers });
    const texts = async () =>
      (await t.server().deps.db.select().from(notifications).where(eq(notifications.userId, u.userId))).map((n) => n.text);
    await expect.poll(texts).toContain('Your appeal was reviewed and the decision stands.');
  });

  it('one browser makes at most a few accounts a day', async () => {
    const first = await browserUser();
    expect(first.status).toBe(201);
    expect((await browserUser(t.server(), first.device)).status).toBe(201);
    expect((await browserUser(t.server(), first.device)).status).toBe(201);
    const fourth = await browserUser(t.server(), first.device);
    expect(fourth.status).toBe(429);
    expect(fourth.body.message).toBe('Too many sign-ups from this network. Try again later.');
    expect((await browserUser()).status).toBe(201);
  });

  it('end the user’s sockets on every API process', async (ctx) => {
    if (!process.env.DATABASE_URL || !process.env.REDIS_URL) ctx.skip();
    const shared = { JWT_SECRET: 'a-test-signing-key-shared-by-both-processes' };
    const one = await startTestServer({ ...shared, SIGNUPS_PER_ADDRESS: '1000' });
    const two = await startTestServer({
      ...shared,
      DATABASE_URL: one.deps.cfg.DATABASE_URL!,
      REDIS_KEY_PREFIX: one.deps.cfg.REDIS_KEY_PREFIX,
    });
    try {
      const troll = await browserUser(one);
      const socket = ioClient(two.url, {
        path: '/socket.io',
        transports: ['websocket'],
        reconnection: false,
        auth: { token: troll.token, protocol: REALTIME_PROTOCOL },
        query: { userId: troll.userId },
      });
      t.sockets.push(socket);
      await next(socket, 'connect');
      const ended = next(socket, authEvents.sessionEnd);
      const mod = await moderator(one);
      await mod.decide({ userId: troll.userId, action: 'ban', rule: 'hate' });
      expect(await ended).toEqual({ reason: 'account_suspended' });
      expect((await login(troll.username, two)).status).toBe(403);
    } finally {
      await two.close();
      await one.close();
    }
  });
});
