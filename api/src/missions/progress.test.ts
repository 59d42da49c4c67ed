import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { EVENT_REWARDS, LEVEL_UP_GOLD, MISSION_ERR, type MissionOverview } from '@parley/contract/missions';
import { wallets } from '../db/schema.ts';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { member } from '../testing/members.ts';
import { missionService, type MissionDeps } from './service.ts';
import { missionStore } from './store.ts';
import { totalXpFor } from './rules.ts';

const live = new Set(['chatAnswered', 'chatMinute', 'dailyVisit'] as const);

describe(`mission progress (${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`, () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  }, 60_000);
  afterAll(() => server?.close());

  /** A missions service as one API process has it, with its own catalogue cache and clock. */
  function process(now?: () => Date, told: Array<[string, number | undefined]> = []) {
    const deps: MissionDeps = { store: missionStore(server.deps.db), liveSources: live, progressed: (u, l) => told.push([u, l]), now };
    return missionService(deps);
  }
  const walletOf = async (userId: string) => (await server.deps.db.select().from(wallets).where(eq(wallets.userId, userId)))[0]!;

  it('counts an event once when it is delivered twice, or by two processes at once', async () => {
    const m = await member(server);
    const [p1, p2] = [process(), process()];
    const results = await Promise.all([
      p1.record(m.userId, { kind: 'chatAnswered', key: 'room-1' }),
      p2.record(m.userId, { kind: 'chatAnswered', key: 'room-1' }),
      p1.record(m.userId, { kind: 'chatAnswered', key: 'room-1' }),
      p2.record(m.userId, { kind: 'chatAnswered', key: 'room-1' }),
    ]);
    expect(results.filter((r) => r.counted)).toHaveLength(1);
    expect((await walletOf(m.userId)).xp).toBe(EVENT_REWARDS.chatAnswered.xp);
    await p1.record(m.userId, { kind: 'chatAnswered', key: 'room-2' });
    expect((await walletOf(m.userId)).xp).toBe(2 * EVENT_REWARDS.chatAnswered.xp);
  });

  it('writes what arrives together in one batch: each key once, each wallet and quest by the sum, a level-up told once', async () => {
    const [m1, m2] = [await member(server), await member(server)];
    const told: Array<[string, number | undefined]> = [];
    const p = process(undefined, told);
    const needed = Math.ceil(totalXpFor(2) / EVENT_REWARDS.chatMinute.xp);
    // All given in one turn: one batch. m1 crosses level 2 within it; m2's key repeats within it.
    const results = await Promise.all([
      ...Array.from({ length: needed }, (_, i) => p.record(m1.userId, { kind: 'chatMinute', key: `b${i}` })),
      p.record(m2.userId, { kind: 'chatAnswered', key: 'same' }),
      p.record(m2.userId, { kind: 'chatAnswered', key: 'same' }),
      p.record(m2.userId, { kind: 'chatMinute', key: 'other' }),
      // Someone whose account is gone: nothing counted for them, the rest written.
      p.record('00000000-0000-4000-8000-000000000000', { kind: 'chatAnswered', key: 'ghost' }),
    ]);
    expect(results.slice(0, needed).every((r) => r.counted)).toBe(true);
    expect(results.slice(0, needed).filter((r) => r.levelUp === 2)).toHaveLength(1);
    expect(results.slice(needed, needed + 3).map((r) => r.counted)).toEqual([true, false, true]);
    expect(results.at(-1)).toEqual({ counted: false });
    const w1 = await walletOf(m1.userId);
    expect(w1).toMatchObject({
      level: 2,
      xp: needed * EVENT_REWARDS.chatMinute.xp,
      gold: needed * EVENT_REWARDS.chatMinute.gold + LEVEL_UP_GOLD,
    });
    expect((await walletOf(m2.userId)).xp).toBe(EVENT_REWARDS.chatAnswered.xp + EVENT_REWARDS.chatMinute.xp);
    expect(told.filter(([u]) => u === m1.userId)).toEqual([[m1.userId, 2]]);
    // Quests of the kind advanced by the batch's sum (up to their targets), once.
    const o = await p.overview(m1.userId, 'free tier');
    for (const q of o.quests.filter((q) => q.kind === 'chatMinute')) expect(q.progress).toBe(Math.min(q.target, needed));
    for (const q of o.quests.filter((q) => q.kind !== 'chatMinute')) expect(q.progress).toBe(0);
  });

  it('a batch that cannot be written is written event by event, so one bad event fails alone', async () => {
    const m = await member(server);
    const store = missionStore(server.deps.db);
    const p = missionService({
      store: { ...store, firstTimes: () => Promise.reject(new Error('batch refused')) },
      liveSources: live,
      progressed: () => undefined,
    });
    const results = await Promise.all([
      p.record(m.userId, { kind: 'chatAnswered', key: 'one' }),
      p.record(m.userId, { kind: 'chatMinute', key: 'two' }),
    ]);
    expect(results.map((r) => r.counted)).toEqual([true, true]);
    expect((await walletOf(m.userId)).xp).toBe(EVENT_REWARDS.chatAnswered.xp + EVENT_REWARDS.chatMinute.xp);
  });

  it('reaches a level on the published curve, gives its gold once and tells the user', async () => {
    const m = await member(server);
    const told: Array<[string, number | undefined]> = [];
    const p = process(undefined, told);
    const needed = Math.ceil(totalXpFor(2) / EVENT_REWARDS.chatMinute.xp);
    for (let i = 0; i < needed; i++) await p.record(m.userId, { kind: 'chatMinute', key: `r${i}` });
    const w = await walletOf(m.userId);
    expect(w.level).toBe(2);
    expect(w.gold).toBe(needed * EVENT_REWARDS.chatMinute.gold + LEVEL_UP_GOLD);
    expect(told.filter(([, l]) => l === 2)).toHaveLength(1);
    const o = await p.overview(m.userId, 'free tier');
    expect(o).toMatchObject({ level: 2, XP: w.xp, nextLevel: totalXpFor(3) - w.xp });
    expect(o.recentRewards.map((r) => r.label)).toContain('Reached level 2');
  });

  it('keeps a streak over three days in the user’s time zone, then starts again after missed days', async () => {
    const m = await member(server, { createdAt: new Date('2026-01-01T00:00:00Z') });
    let at = new Date('2026-11-20T22:30:00Z'); // 23:30 in Paris, 22:30 in UTC
    const p = process(() => at);
    expect((await p.visit(m.userId, 'free tier', 'Europe/Paris')).counted).toBe(true);
    expect((await p.visit(m.userId, 'free tier', 'Europe/Paris')).counted).toBe(false);
    at = new Date('2026-11-21T08:00:00Z');
    await p.visit(m.userId, 'free tier', 'Europe/Paris');
    at = new Date('2026-11-22T23:30:00Z'); // already the 23rd in Paris: a day missed
    await p.visit(m.userId, 'free tier', 'Europe/Paris');
    let o = await p.overview(m.userId, 'free tier');
    expect(o.consecutiveDays).toBe(1);
    at = new Date('2026-11-24T10:00:00Z');
    await p.visit(m.userId, 'free tier', 'Europe/Paris');
    at = new Date('2026-11-25T10:00:00Z');
    await p.visit(m.userId, 'free tier', 'Europe/Paris');
    o = await p.overview(m.userId, 'free tier');
    expect(o).toMatchObject({ consecutiveDays: 3, today: '2026-11-25', timeZone: 'Europe/Paris' });
    expect(o.parsedDates).toEqual(['2026-11-20', '2026-11-21', '2026-11-23', '2026-11-24', '2026-11-25']);
    expect(o.gold).toBe(5 * EVENT_REWARDS.dailyVisit.gold);
  });

  it('never counts two days in one by switching time zones', async () => {
    const m = await member(server, { createdAt: new Date('2026-01-01T00:00:00Z') });
    const at = new Date('2026-11-20T11:00:00Z'); // the 20th in Honolulu, the 21st in Kiritimati (UTC+14) after 10:00 UTC
    const p = process(() => at);
    expect((await p.visit(m.userId, 'free tier', 'Pacific/Honolulu')).counted).toBe(true);
    expect((await p.visit(m.userId, 'free tier', 'Pacific/Kiritimati')).counted).toBe(false);
    const o = await p.overview(m.userId, 'free tier');
    expect(o).toMatchObject({ consecutiveDays: 1, parsedDates: ['2026-11-20'] });
  });

  it('never counts a second day by reporting a new time zone twice, or by switching back and forth', async () => {
    const m = await member(server, { createdAt: new Date('2026-01-01T00:00:00Z') });
    let at = new Date('2026-11-20T11:00:00Z'); // 01:00 on the 20th in Honolulu, 01:00 on the 21st in Kiritimati
    const p = process(() => at);
    expect((await p.visit(m.userId, 'free tier', 'Pacific/Honolulu')).counted).toBe(true);
    for (const zone of ['Pacific/Kiritimati', 'Pacific/Kiritimati', 'Pacific/Honolulu', 'Pacific/Kiritimati']) {
      expect((await p.visit(m.userId, 'free tier', zone)).counted).toBe(false);
    }
    // A day later in Honolulu the next day counts, once, whichever zone is reported.
    at = new Date('2026-11-21T10:30:00Z');
    expect((await p.visit(m.userId, 'free tier', 'Pacific/Kiritimati')).counted).toBe(true);
    for (const zone of ['Pacific/Kiritimati', 'Pacific/Honolulu', 'Pacific/Kiritimati']) {
      expect((await p.visit(m.userId, 'free tier', zone)).counted).toBe(false);
    }
    const o = await p.overview(m.userId, 'free tier');
    expect(o).toMatchObject({ consecutiveDays: 2, parsedDates: ['2026-11-20', '2026-11-21'], timeZone: 'Pacific/Kiritimati' });
    expect(o.gold).toBe(2 * EVENT_REWARDS.dailyVisit.gold);
  });

  it('counts no more days across a zone whose midnight comes first than staying in one zone would', async () => {
    const m = await member(server, { createdAt: new Date('2026-01-01T00:00:00Z') });
    let at = new Date('2026-11-20T23:00:00Z'); // 23:00 on the 20th in UTC
    const p = process(() => at);
    expect((await p.visit(m.userId, 'free tier', 'UTC')).counted).toBe(true);
    at = new Date('2026-11-21T00:00:00Z'); // the 21st in UTC and in Kiritimati (14:00)
    expect((await p.visit(m.userId, 'free tier', 'Pacific/Kiritimati')).counted).toBe(true);
    at = new Date('2026-11-21T10:00:00Z'); // already the 22nd in Kiritimati, still the 21st in UTC
    expect((await p.visit(m.userId, 'free tier', 'Pacific/Kiritimati')).counted).toBe(false);
    at = new Date('2026-11-22T00:00:00Z');
    expect((await p.visit(m.userId, 'free tier', 'Pacific/Kiritimati')).counted).toBe(true);
    expect((await p.overview(m.userId, 'free tier')).consecutiveDays).toBe(3);
  });

  it('follows a move west: the day counts once the new zone reaches it', async () => {
    const m = await member(server, { createdAt: new Date('2026-01-01T00:00:00Z') });
    let at = new Date('2026-11-20T09:00:00Z'); // 10:00 on the 20th in Paris
    const p = process(() => at);
    expect((await p.visit(m.userId, 'free tier', 'Europe/Paris')).counted).toBe(true);
    at = new Date('2026-11-21T06:00:00Z'); // the 21st in Paris, 22:00 on the 20th in Los Angeles
    expect((await p.visit(m.userId, 'free tier', 'America/Los_Angeles')).counted).toBe(false);
    at = new Date('2026-11-21T09:00:00Z'); // 01:00 on the 21st in Los Angeles
    expect((await p.visit(m.userId, 'free tier', 'America/Los_Angeles')).counted).toBe(true);
    at = new Date('2026-11-21T23:30:00Z'); // the 22nd in Paris, 15:30 on the 21st in Los Angeles
    expect((await p.visit(m.userId, 'free tier', 'America/Los_Angeles')).counted).toBe(false);
    at = new Date('2026-11-22T08:30:00Z'); // 00:30 on the 22nd in Los Angeles
    expect((await p.visit(m.userId, 'free tier', 'America/Los_Angeles')).counted).toBe(true);
    expect((await p.overview(m.userId, 'free tier')).consecutiveDays).toBe(3);
  });

  it('uses a held freeze on a missed day, and lets premium members hold three', async () => {
    const m = await member(server, { createdAt: new Date('2026-01-01T00:00:00Z') });
    let at = new Date('2026-10-01T12:00:00Z');
    const p = process(() => at);
    for (let d = 0; d < 7; d++) {
      at = new Date(Date.UTC(2026, 9, 1 + d, 12));
      await p.visit(m.userId, 'free tier', 'UTC');
    }
    expect((await walletOf(m.userId)).freezes).toBe(1);
    at = new Date(Date.UTC(2026, 9, 9, 12)); // the 8th missed
    await p.visit(m.userId, 'free tier', 'UTC');
    const o = await p.overview(m.userId, 'free tier');
    expect(o).toMatchObject({ consecutiveDays: 8, freezes: 0, frozenDates: ['2026-10-08'], maxFreezes: 2 });
    expect((await p.overview(m.userId, 'plus')).maxFreezes).toBe(3);
  });

  it('draws three daily quests and one weekly from live sources; progress fills them and a claim pays once', async () => {
    const m = await member(server);
    const p = process();
    let o = await p.overview(m.userId, 'free tier');
    expect(o.quests.filter((q) => q.cadence === 'daily')).toHaveLength(3);
    expect(o.quests.filter((q) => q.cadence === 'weekly')).toHaveLength(1);
    expect(o.quests.every((q) => live.has(q.kind as never))).toBe(true);
    const quest = o.quests.find((q) => q.cadence === 'daily')!;
    await expect(p.claim(m.userId, { period: quest.period, questId: quest.questId })).rejects.toThrow(MISSION_ERR.questNotDone);
    for (let i = 0; i < quest.target; i++) await p.record(m.userId, { kind: quest.kind, key: `q${i}` });
    o = await p.overview(m.userId, 'free tier');
    expect(o.quests.find((q) => q.questId === quest.questId)).toMatchObject({ progress: quest.target, claimed: false });
    const before = o.gold;
    await p.claim(m.userId, { period: quest.period, questId: quest.questId });
    await expect(p.claim(m.userId, { period: quest.period, questId: quest.questId })).rejects.toThrow(MISSION_ERR.questClaimed);
    o = await p.overview(m.userId, 'free tier');
    expect(o.gold).toBeGreaterThanOrEqual(before + quest.gold);
    expect(o.quests.find((q) => q.questId === quest.questId)?.claimed).toBe(true);
    // Another user cannot claim it: it is not one of theirs.
    const other = await member(server);
    await expect(process().claim(other.userId, { period: quest.period, questId: quest.questId })).rejects.toThrow(
      MISSION_ERR.questNotFound,
    );
    // Nor can yesterday's be claimed today.
    await expect(p.claim(m.userId, { period: 'day:2020-01-01', questId: quest.questId })).rejects.toThrow(MISSION_ERR.questNotFound);
  });

  describe('over HTTP', () => {
    it('shows the spec’s mission state, counts the visit in the given zone, and validates', async () => {
      const m = await member(server);
      const visit = await m.post('/api/missions/visit', { timeZone: 'America/New_York' });
      expect(visit.status).toBe(200);
      const o = (await (await m.get('/api/missions')).json()) as MissionOverview;
      expect(o).toMatchObject({ level: 1, XP: EVENT_REWARDS.dailyVisit.xp, gold: EVENT_REWARDS.dailyVisit.gold, consecutiveDays: 1 });
      expect(o.timeZone).toBe('America/New_York');
      expect(o.parsedDates).toEqual([o.today]);
      for (const body of [{}, { timeZone: 'Mars/Olympus' }, { timeZone: 'x'.repeat(65) }, { timeZone: 'UTC', extra: 1 }]) {
        expect((await m.post('/api/missions/visit', body)).status).toBe(400);
      }
      expect((await m.post('/api/missions/quests/claim', { period: 'day:2026-11-26', questId: 'DROP TABLE' })).status).toBe(400);
      expect((await m.put('/api/missions/settings', { streakReminders: false, quietFrom: 25 })).status).toBe(400);
      expect((await m.put('/api/missions/settings', { streakReminders: false })).status).toBe(204);
      expect(((await (await m.get('/api/missions')).json()) as MissionOverview).settings.streakReminders).toBe(false);
      expect((await server.api('/api/missions')).status).toBe(401);
      expect((await server.api('/api/missions/visit', { method: 'POST', json: { timeZone: 'UTC' } })).status).toBe(401);
    });

    it('answers an unfinished or foreign quest with a clear message', async () => {
      const m = await member(server);
      const o = (await (await m.get('/api/missions')).json()) as MissionOverview;
      const q = o.quests[0]!;
      const res = await m.post('/api/missions/quests/claim', { period: q.period, questId: q.questId });
      expect(res.status).toBe(409);
      expect(await res.json()).toEqual({ message: MISSION_ERR.questNotDone, code: 'quest_not_done' });
      const stranger = await member(server);
      const foreign = await stranger.post('/api/missions/quests/claim', { period: q.period, questId: 'make-friend' });
      expect(foreign.status).toBe(404);
    });
  });
});
