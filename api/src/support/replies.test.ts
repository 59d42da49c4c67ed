import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { TokenUser } from '@parley/contract/auth';
import type { NotificationPage } from '@parley/contract/notifications';
import { SAFETY_ERR, type SupportItem } from '@parley/contract/safety';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { supportRequests, users } from '../db/schema.ts';

const request = { email: 'ada@example.com', topic: 'account', message: 'I cannot change my profile picture, it fails every time.' };

describe('moderators reply to support requests in the app', () => {
  let server: TestServer;
  let n = 0;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  async function account(role: 'user' | 'moderator' = 'user') {
    const username = `sup${n++}${Date.now().toString(36).slice(-4)}`;
    // Staff work with two-factor on (the moderation API refuses them otherwise).
    const twoFactorAt = role === 'user' ? null : new Date();
    const [row] = await server.deps.db.insert(users).values({ username, role, twoFactorAt }).returning({ id: users.id });
    const user: TokenUser = {
      userId: row!.id,
      username,
      avatar: '',
      gender: 'female',
      age: 30,
      isVerified: true,
      premiumUser: 'free tier',
    };
    return { ...user, auth: { authorization: `Bearer ${await server.deps.tokens.sign(user)}` } };
  }
  async function file(from?: { auth: Record<string, string> }) {
    const res = await server.api('/api/support', { method: 'POST', json: request, headers: from?.auth ?? {} });
    return ((await res.json()) as { id: string }).id;
  }
  const reply = (who: { auth: Record<string, string> }, id: string, json: unknown) =>
    server.api(`/api/moderation/support/${id}/reply`, { method: 'POST', json, headers: who.auth });

  it('stores the reply, takes the request off the queue and notifies its sender', async () => {
    const [ada, mod] = [await account(), await account('moderator')];
    const id = await file(ada);
    const res = await reply(mod, id, { text: '  Try a JPEG under 5 MB; we fixed PNG uploads today.  ' });
    expect(res.status).toBe(204);
    const [row] = await server.deps.db.select().from(supportRequests).where(eq(supportRequests.id, id));
    expect(row).toMatchObject({ reply: 'Try a JPEG under 5 MB; we fixed PNG uploads today.', repliedBy: mod.userId });
    expect(row!.handledAt).not.toBeNull();
    const queue = (await (await server.api('/api/moderation/support', { headers: mod.auth })).json()) as SupportItem[];
    expect(queue.map((q) => q.id)).not.toContain(id);
    // The notice is sent after the answer, not before it: wait for it to be stored.
    const latest = async () =>
      ((await (await server.api('/api/notifications', { headers: ada.auth })).json()) as NotificationPage).notificationList[0];
    await expect.poll(latest, { timeout: 10_000 }).toBeDefined();
    expect(await latest()).toMatchObject({
      kind: 'supportReply',
      text: 'Parley support replied to your account request: Try a JPEG under 5 MB; we fixed PNG uploads today.',
      link: '/contact-support',
      read: false,
    });
  });

  it('answers once; refuses a request sent without an account, a member who is no moderator and an empty reply', async () => {
    const [ada, mod, eve] = [await account(), await account('moderator'), await account()];
    const id = await file(ada);
    expect((await reply(eve, id, { text: 'I am not a moderator' })).status).toBe(403);
    const empty = await reply(mod, id, { text: '  ' });
    expect(empty.status).toBe(400);
    expect((await reply(mod, id, {})).status).toBe(400);
    expect((await reply(mod, 'not-an-id', { text: 'hello' })).status).toBe(400);
    expect((await reply(mod, id, { text: 'First answer' })).status).toBe(204);
    const twice = await reply(mod, id, { text: 'Second answer' });
    expect(twice.status).toBe(409);
    expect(await twice.json()).toMatchObject({ message: SAFETY_ERR.supportAnswered, code: 'already_answered' });
    const anonymous = await reply(mod, await file(), { text: 'Hello there' });
    expect(anonymous.status).toBe(409);
    expect(await anonymous.json()).toMatchObject({ message: SAFETY_ERR.supportNoAccount, code: 'no_account' });
    expect((await reply(mod, '6f1c2a4e-4b7e-4d8a-9a51-0c2f4a9d3b11', { text: 'Hello there' })).status).toBe(404);
  });
});
