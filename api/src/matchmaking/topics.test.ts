import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { openTestDatabase } from '../testing/database.ts';
import { hiddenTopics, topicSearchCounts, users } from '../db/schema.ts';
import { POPULAR_MIN_SEARCHES, topicStats } from './topics.ts';

let database: Database;
/** Accounts by name: a month old, verified, with three real chats (established), unless made otherwise below. */
const id: Record<string, string> = {};
const NEWBIES = ['newbie1', 'newbie2', 'newbie3', 'newbie4', 'newbie5', 'newbie6'];
const NAMES = ['u0', 'u1', 'u2', 'u3', 'u4', 'u5', 'u6', 'spammer', 'a', 'b', 'c', ...NEWBIES, 'unverified'];
const MONTH_AGO = new Date(Date.now() - 30 * 86_400_000);
beforeAll(async () => {
  database = await openTestDatabase({ postgres: false });
  for (const name of NAMES) {
    const [account] = await database.db
      .insert(users)
      .values({ username: name, isVerified: name !== 'unverified', age: 30, gender: 'other' })
      .returning();
    if (!account) throw new Error('no account');
    id[name] = account.id;
    if (!name.startsWith('newbie'))
      await database.db.update(users).set({ realChats: 3, createdAt: MONTH_AGO }).where(eq(users.id, account.id));
  }
}, 60_000);
afterAll(() => database.close());

const fail = (err: unknown) => {
  throw err;
};

describe('topic statistics', () => {
  it('adds the searches of every flush to one row per topic and minute, and ranks the last hour', async () => {
    const stats = topicStats(database.db, fail);
    const hoursAgo = (h: number) => new Date(Math.floor((Date.now() - h * 3_600_000) / 60_000) * 60_000);
    // Older than an hour: not popular however often searched; older than a day: pruned.
    await database.db.insert(topicSearchCounts).values([
      { topic: 'yesterday', minute: hoursAgo(2), searches: 1000 },
      { topic: 'last week', minute: hoursAgo(24 * 7), searches: 1000 },
    ]);
    for (let i = 0; i < 3; i++) stats.record(id[`u${i}`]!, ['chess', 'jazz']);
    stats.record(id.u3!, ['chess']);
    stats.record(id.u6!, ['chess']);
    await stats.flush();
    for (let i = 3; i < 6; i++) stats.record(id[`u${i}`]!, ['jazz']);
    await stats.flush();

    const rows = await database.db.select().from(topicSearchCounts);
    const recent = rows.filter((r) => r.minute > hoursAgo(1));
    // One row per topic (two if the flushes straddled a minute), holding the sum.
    expect(recent.length).toBeLessThanOrEqual(4);
    const sum = (t: string) => recent.filter((r) => r.topic === t).reduce((n, r) => n + r.searches, 0);
    expect([sum('chess'), sum('jazz')]).toEqual([5, 6]);
    expect(await stats.popular()).toEqual(['jazz', 'chess']);

    await stats.prune();
    const left = (await database.db.select().from(topicSearchCounts)).map((r) => r.topic);
    expect(left).toContain('yesterday');
    expect(left).not.toContain('last week');
    await stats.close();
  });

  it('counts one user once per topic and hour, however often they search', async () => {
    await database.db.delete(topicSearchCounts);
    const stats = topicStats(database.db, fail);
    for (let i = 0; i < 50; i++) stats.record(id.spammer!, ['buy my stuff', 'cats']);
    stats.record(id.a!, ['cats']);
    stats.record(id.b!, ['dogs']);
    stats.record(id.c!, ['dogs']);
    await stats.flush();
    const rows = await database.db.select().from(topicSearchCounts);
    const sum = (t: string) => rows.filter((r) => r.topic === t).reduce((n, r) => n + r.searches, 0);
    expect([sum('buy my stuff'), sum('cats'), sum('dogs')]).toEqual([1, 2, 2]);
    // And for a bounded number of distinct topics an hour.
    for (let i = 0; i < 100; i++) stats.record(id.spammer!, [`topic ${i}`]);
    await stats.flush();
    const spam = (await database.db.select().from(topicSearchCounts)).filter((r) => r.topic.startsWith('topic '));
    expect(spam.length).toBe(28);
    await stats.close();
  });

  it('counts only accounts with standing, never a topic that looks like a link, and not a hidden topic', async () => {
    await database.db.delete(topicSearchCounts);
    const stats = topicStats(database.db, fail);
    // Throwaway accounts (no real chats yet, or never verified) push nothing up, however many.
    for (const name of ['newbie1', 'newbie2', 'newbie3', 'unverified']) stats.record(id[name]!, ['free prizes']);
    for (const name of ['u0', 'u1', 'u2', 'u3', 'u4'])
      stats.record(id[name]!, ['free-prizes at evil.example', 'www.win', 'http://x', 'board games', 'poker']);
    await stats.flush();
    const topics = (await database.db.select().from(topicSearchCounts)).map((r) => r.topic);
    expect(new Set(topics)).toEqual(new Set(['board games', 'poker']));
    expect(await stats.popular()).toEqual(['board games', 'poker']);
    // Fewer than POPULAR_MIN_SEARCHES accounts: not suggested.
    stats.record(id.a!, ['rare']);
    stats.record(id.b!, ['rare']);
    await stats.flush();
    await stats.setHidden('poker', true, id.u0!);
    expect(await stats.popular()).toEqual(['board games']);
    expect(await database.db.select().from(hiddenTopics)).toHaveLength(1);
    await stats.setHidden('poker', false, id.u0!);
    expect(await stats.popular()).toEqual(['board games', 'poker']);
    await stats.close();
  });

  it('cannot be poisoned by a handful of fresh accounts, nor by links written around the check or hidden characters', async () => {
    await database.db.delete(topicSearchCounts);
    const stats = topicStats(database.db, fail);
    // Fresh accounts that earned real chats by chatting with each other: verified, but days too young.
    for (const name of NEWBIES) await database.db.update(users).set({ realChats: 10 }).where(eq(users.id, id[name]!));
    for (const name of NEWBIES) stats.record(id[name]!, ['cheap followers']);
    const poisoned = [
      'evil．com',
      'evil。com',
      'evil[.]com',
      'evil (dot) com',
      'ｗｗｗ.win',
      'ftp\u200b://x',
      'cats \u202egpj.exe',
      'free\u200bprizes',
      'ab\u2066c',
    ];
    const established = ['u0', 'u1', 'u2', 'u3', 'u4', 'u5'];
    for (const name of established) stats.record(id[name]!, [...poisoned, 'polka dot dress']);
    // Many established accounts: one fewer than needed is not enough.
    for (const name of established.slice(0, POPULAR_MIN_SEARCHES - 1)) stats.record(id[name]!, ['four fans']);
    await stats.flush();
    const topics = (await database.db.select().from(topicSearchCounts)).map((r) => r.topic);
    expect(new Set(topics)).toEqual(new Set(['polka dot dress', 'four fans']));
    expect(await stats.popular()).toEqual(['polka dot dress']);
    await stats.close();
  });
});
