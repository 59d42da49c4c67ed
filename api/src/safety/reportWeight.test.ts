import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { chatEvents, type RoomSetup } from '@parley/contract/matchmaking';
import { FULL_REPORT_WEIGHT, type ModerationCase, type QueueEntry, type ReportBody } from '@parley/contract/safety';
import type { TokenUser } from '@parley/contract/auth';
import { personWithAccount as signedMember } from '../testing/members.ts';
import { encounters, reports, roomMembers, roomMessages, storedRooms, users } from '../db/schema.ts';
import { next, search, silent, socketTestServer } from '../testing/socketClients.ts';

const t = socketTestServer();
const DAY_MS = 86_400_000;

/** An account: fresh (made now, no real chats) or established (a month old, five real chats). */
const member = (kind: 'fresh' | 'established' = 'fresh', role: 'user' | 'moderator' = 'user') =>
  signedMember(t.server(), {
    role,
    ...(kind === 'established' && { account: { createdAt: new Date(Date.now() - 30 * DAY_MS), realChats: 5 } }),
  });

/** A 1:1 text chat between the two, which `a` then leaves: an encounter the server records. */
async function chat(a: TokenUser, b: TokenUser) {
  const { ka, kb } = await t.pair(a, b, { roomType: 'textChat' }, { roomType: 'textChat' });
  const left = next(kb, chatEvents.partnerLeft);
  ka.emit(chatEvents.stop);
  await left;
  ka.disconnect();
  kb.disconnect();
}

const profileReport = (reportedUserId: string): ReportBody => ({ reportedUserId, context: 'profile', reason: 'harassment', block: false });

async function report(reporter: Awaited<ReturnType<typeof member>>, reportedUserId: string) {
  const res = await reporter.call('/api/reports', { method: 'POST', json: profileReport(reportedUserId) });
  expect(res.status).toBe(201);
}

/** Whether `target` is matched only with people in review: a stranger not in review searching at once is not matched with them. */
async function inReview(target: TokenUser): Promise<boolean> {
  const stranger = await member();
  const kt = await t.open(target);
  kt.emit(chatEvents.start, search({ roomType: 'textChat' }));
  await next(kt, chatEvents.searching);
  const ks = await t.open(stranger.user);
  const matched = next<RoomSetup>(ks, chatEvents.matched, () => true, 3000).then(
    () => true,
    () => false,
  );
  const unmatched = silent(ks, chatEvents.matched, 1000);
  ks.emit(chatEvents.start, search({ roomType: 'textChat' }));
  const wasMatched = !(await unmatched) || (await matched);
  kt.emit(chatEvents.stop);
  ks.emit(chatEvents.stop);
  kt.disconnect();
  ks.disconnect();
  return !wasMatched;
}

async function caseOf(userId: string) {
  const mod = await member('established', 'moderator');
  const queue = (await (await mod.call('/api/moderation/queue')).json()) as QueueEntry[];
  const c = (await (await mod.call(`/api/moderation/users/${userId}`)).json()) as ModerationCase;
  return { entry: queue.find((e) => e.user.userId === userId), reports: c.reports, mod };
}

describe('reports weigh only from people who met the reported person, by their standing', () => {
  it('three fresh accounts that never met someone do not put them in review; the queue still shows every report', async () => {
    const target = await member('established');
    for (let i = 0; i < 3; i++) await report(await member(), target.user.userId);
    expect(await inReview(target.user)).toBe(false);
    const { entry, reports: shown } = await caseOf(target.user.userId);
    expect(entry).toMatchObject({ openReports: 3, reporters: 3, weight: 0 });
    expect(shown).toHaveLength(3);
    for (const r of shown) expect(r).toMatchObject({ weight: 0, encounter: null });
  }, 30_000);

  it('neither do fresh accounts that did chat with them, nor established ones that never met them', async () => {
    const target = await member('established');
    for (let i = 0; i < 3; i++) {
      const fresh = await member();
      await chat(target.user, fresh.user);
      await report(fresh, target.user.userId);
      await report(await member('established'), target.user.userId);
    }
    expect(await inReview(target.user)).toBe(false);
    const { entry, reports: shown } = await caseOf(target.user.userId);
    expect(entry).toMatchObject({ openReports: 6, reporters: 6, weight: 0 });
    expect(shown.filter((r) => r.encounter === 'chat')).toHaveLength(3);
  }, 60_000);

  it('three established people who chatted with someone put them in review, until a moderator decides', async () => {
    const target = await member();
    for (let i = 0; i < 3; i++) {
      const reporter = await member('established');
      await chat(reporter.user, target.user);
      await report(reporter, target.user.userId);
    }
    expect(await inReview(target.user)).toBe(true);
    const { entry, reports: shown, mod } = await caseOf(target.user.userId);
    expect(entry).toMatchObject({ reporters: 3, weight: 3 * FULL_REPORT_WEIGHT });
    for (const r of shown) expect(r).toMatchObject({ weight: FULL_REPORT_WEIGHT, encounter: 'chat' });
    expect(
      (await mod.call('/api/moderation/decisions', { method: 'POST', json: { userId: target.user.userId, action: 'dismiss' } })).status,
    ).toBe(201);
    expect(await inReview(target.user)).toBe(false);
  }, 60_000);

  it('weighs a reporter whose earlier reports were dismissed less, and one reported or sanctioned themselves less', async () => {
    const target = await member();
    const db = t.server().deps.db;
    const [clean, dismissedOnce, dismissedTwice] = [await member('established'), await member('established'), await member('established')];
    const other = await member();
    const past = (reporterId: string, resolution: string) =>
      db
        .insert(reports)
        .values({ reporterId, reportedId: other.user.userId, context: 'textChat', reason: 'spam', resolvedAt: new Date(), resolution });
    await past(dismissedOnce.user.userId, 'dismiss');
    await past(dismissedTwice.user.userId, 'dismiss');
    await past(dismissedTwice.user.userId, 'dismiss');
    // A dismissal weighs less after a report a moderator acted on.
    await past(clean.user.userId, 'warn');
    for (const r of [clean, dismissedOnce, dismissedTwice]) {
      await chat(r.user, target.user);
      await report(r, target.user.userId);
    }
    const weights = async () => {
      const rows = await db
        .select({ reporterId: reports.reporterId, weight: reports.weight })
        .from(reports)
        .where(eq(reports.reportedId, target.user.userId));
      return Object.fromEntries(rows.map((r) => [r.reporterId, r.weight]));
    };
    expect(await weights()).toEqual({
      [clean.user.userId]: FULL_REPORT_WEIGHT,
      [dismissedOnce.user.userId]: FULL_REPORT_WEIGHT / 2,
      [dismissedTwice.user.userId]: Math.round(FULL_REPORT_WEIGHT / 3),
    });
    expect(await inReview(target.user)).toBe(false);

    // Sanctioned lately: half.
    const warned = await member('established');
    const { mod } = await caseOf(target.user.userId);
    expect(
      (
        await mod.call('/api/moderation/decisions', {
          method: 'POST',
          json: { userId: warned.user.userId, action: 'warn', rule: 'respect' },
        })
      ).status,
    ).toBe(201);
    await chat(warned.user, target.user);
    await report(warned, target.user.userId);
    expect((await weights())[warned.user.userId]).toBe(FULL_REPORT_WEIGHT / 2);

    // Reported by an established person who met them, not yet reviewed: half.
    const accused = await member('established');
    const accuser = await member('established');
    await chat(accuser.user, accused.user);
    await report(accuser, accused.user.userId);
    await chat(accused.user, target.user);
    await report(accused, target.user.userId);
    expect((await weights())[accused.user.userId]).toBe(FULL_REPORT_WEIGHT / 2);
  }, 90_000);

  it('a brand-new account weighs nothing however it met the person, until it is established', async () => {
    const db = t.server().deps.db;
    const target = await member();
    const reporter = await member();
    await chat(reporter.user, target.user);
    await report(reporter, target.user.userId);
    // A week old, but no real chats yet: still nothing.
    await db
      .update(users)
      .set({ createdAt: new Date(Date.now() - 8 * DAY_MS) })
      .where(eq(users.id, reporter.user.userId));
    await report(reporter, target.user.userId);
    await db.update(users).set({ realChats: 3 }).where(eq(users.id, reporter.user.userId));
    await report(reporter, target.user.userId);
    const rows = await db
      .select({ weight: reports.weight })
      .from(reports)
      .where(eq(reports.reportedId, target.user.userId))
      .orderBy(reports.createdAt);
    expect(rows.map((r) => r.weight)).toEqual([0, 0, FULL_REPORT_WEIGHT]);
  }, 30_000);

  it('counts a group room both belong to, direct messages the other wrote, and a stream of theirs watched; not a profile seen', async () => {
    const db = t.server().deps.db;
    const target = await member();
    const encounterOf = async (reporter: Awaited<ReturnType<typeof member>>) => {
      await report(reporter, target.user.userId);
      const [row] = await db
        .select({ encounter: reports.encounter, weight: reports.weight })
        .from(reports)
        .where(eq(reports.reporterId, reporter.user.userId))
        .orderBy(reports.createdAt);
      return row;
    };

    const owner = await member('established');
    const created = await owner.call('/api/groups', { method: 'POST', json: { name: 'Board games', category: 'Music' } });
    expect(created.status).toBe(201);
    const { roomId } = (await created.json()) as { roomId: string };
    expect((await target.call(`/api/groups/${roomId}/join`, { method: 'POST', json: {} })).status).toBe(200);
    expect(await encounterOf(owner)).toEqual({ encounter: 'group', weight: FULL_REPORT_WEIGHT });

    // Direct messages: only if the reported person wrote in them.
    const [wrote, silentPartner] = [await member('established'), await member('established')];
    for (const other of [wrote, silentPartner]) {
      const [low, high] = [other.user.userId, target.user.userId].sort();
      const [room] = await db
        .insert(storedRooms)
        .values({ kind: 'direct', directKey: `${low}:${high}` })
        .returning({ id: storedRooms.id });
      await db.insert(roomMembers).values([other, target].map((m) => ({ roomId: room!.id, userId: m.user.userId })));
      const sender = other === wrote ? target : other;
      await db.insert(roomMessages).values({ roomId: room!.id, id: 1, senderId: sender.user.userId, text: 'hello' });
    }
    expect(await encounterOf(wrote)).toEqual({ encounter: 'direct', weight: FULL_REPORT_WEIGHT });
    expect(await encounterOf(silentPartner)).toEqual({ encounter: null, weight: 0 });

    // A watch of the target's stream that ended, as the live area records it.
    const viewer = await member('established');
    await db.insert(encounters).values({ roomId: 'stream-1', userId: viewer.user.userId, partnerId: target.user.userId, kind: 'live' });
    expect(await encounterOf(viewer)).toEqual({ encounter: 'live', weight: FULL_REPORT_WEIGHT });

    // A stream watched makes no chat partner: not among recent partners, and not to be rated.
    expect(await (await viewer.call('/api/friends/recent')).json()).toEqual([]);
    const rated = await viewer.call('/api/ratings', {
      method: 'POST',
      json: { username: target.user.username, roomId: 'stream-1', value: 'down' },
    });
    expect(rated.status).toBe(404);
  }, 60_000);
});
