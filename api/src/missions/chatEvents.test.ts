import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { chatEvents } from '@parley/contract/matchmaking';
import { EVENT_REWARDS, missionEvents } from '@parley/contract/missions';
import { missionEvents as missionEventRows } from '../db/schema.ts';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { member } from '../testing/members.ts';
import { next, said, socketClients } from '../testing/socketClients.ts';

describe('missions follow the 1:1 chat', () => {
  let server: TestServer;
  const clients = socketClients(() => server);
  beforeAll(async () => {
    server = await startTestServer({ MISSION_MIN_CHAT_SECONDS: '5' });
  }, 60_000);
  afterEach(() => clients.closeAll());
  afterAll(() => server?.close());

  const kinds = async (userId: string) =>
    (await server.deps.db.select().from(missionEventRows).where(eq(missionEventRows.userId, userId))).map((r) => r.kind).sort();

  it('a chat both people spoke in, of the minimum length (5 s here), rewards both once; the server tells their pages', async () => {
    const [a, b] = [await member(server), await member(server)];
    const { ka, kb, roomId } = await clients.chatting(a.user, b.user);
    await said(ka, roomId, 'hi');
    await said(kb, roomId, 'hello');
    await new Promise((r) => setTimeout(r, 5100));
    const progressed = next(ka, missionEvents.progressed);
    ka.emit(chatEvents.stop);
    await progressed;
    await expect.poll(() => kinds(b.userId)).toEqual(['chatAnswered', 'chatMinute']);
    await expect.poll(() => kinds(a.userId)).toEqual(['chatAnswered', 'chatMinute']);
    const o = (await (await a.get('/api/missions')).json()) as { XP: number };
    expect(o.XP).toBe(EVENT_REWARDS.chatAnswered.xp + EVENT_REWARDS.chatMinute.xp);
  });

  it('a chat only one person spoke in, or a short one, rewards no more than it earned', async () => {
    const [a, b] = [await member(server), await member(server)];
    const one = await clients.chatting(a.user, b.user);
    await said(one.ka, one.roomId, 'anyone?');
    one.ka.emit(chatEvents.stop);
    await next(one.kb, chatEvents.partnerLeft);
    clients.closeAll();
    // Recent partners are not matched again at once: the short chat is between two others.
    const [c, d] = [await member(server), await member(server)];
    const two = await clients.chatting(c.user, d.user);
    await said(two.ka, two.roomId, 'hi');
    await said(two.kb, two.roomId, 'bye');
    two.kb.emit(chatEvents.stop);
    await expect.poll(() => kinds(c.userId)).toEqual(['chatAnswered']);
    await expect.poll(() => kinds(d.userId)).toEqual(['chatAnswered']);
    expect(await kinds(a.userId)).toEqual([]);
    expect(await kinds(b.userId)).toEqual([]);
  });
});
