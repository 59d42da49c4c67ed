import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../db/client.ts';
import { topicSearchCounts } from '../db/schema.ts';
import { topicStats } from './topics.ts';

let database: Database;
beforeAll(async () => {
  database = await openDatabase({ dataDir: 'memory://' });
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
    for (let i = 0; i < 3; i++) stats.record(`u${i}`, ['chess', 'jazz']);
    stats.record('u3', ['chess']);
    await stats.flush();
    for (let i = 3; i < 6; i++) stats.record(`u${i}`, ['jazz']);
    await stats.flush();

    const rows = await database.db.select().from(topicSearchCounts);
    const recent = rows.filter((r) => r.minute > hoursAgo(1));
    // One row per topic (two if the flushes straddled a minute), holding the sum.
    expect(recent.length).toBeLessThanOrEqual(4);
    const sum = (t: string) => recent.filter((r) => r.topic === t).reduce((n, r) => n + r.searches, 0);
    expect([sum('chess'), sum('jazz')]).toEqual([4, 6]);
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
    for (let i = 0; i < 50; i++) stats.record('spammer', ['buy my stuff', 'cats']);
    stats.record('a', ['cats']);
    stats.record('b', ['dogs']);
    stats.record('c', ['dogs']);
    await stats.flush();
    const rows = await database.db.select().from(topicSearchCounts);
    const sum = (t: string) => rows.filter((r) => r.topic === t).reduce((n, r) => n + r.searches, 0);
    expect([sum('buy my stuff'), sum('cats'), sum('dogs')]).toEqual([1, 2, 2]);
    // And for a bounded number of distinct topics an hour.
    for (let i = 0; i < 100; i++) stats.record('spammer', [`topic ${i}`]);
    await stats.flush();
    const spam = (await database.db.select().from(topicSearchCounts)).filter((r) => r.topic.startsWith('topic '));
    expect(spam.length).toBe(28);
    await stats.close();
  });
});
