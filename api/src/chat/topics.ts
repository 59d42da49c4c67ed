import { desc, lt, gt, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { topicSearches } from '../db/schema.ts';

const FLUSH_MS = 2_000;
const POPULAR_CACHE_MS = 10_000;
const PRUNE_EVERY_MS = 60 * 60_000;
const POPULAR_COUNT = 10;

/**
 * Topic statistics for the "popular topics" suggestions. Searches are buffered and written in one
 * insert every FLUSH_MS (never a query per search); the top ten of the last hour are cached for
 * POPULAR_CACHE_MS; rows older than a day are deleted every hour.
 */
export function topicStats(db: Db, onError: (err: unknown) => void) {
  let buffer: Array<{ topic: string; searchedAt: Date }> = [];
  let cached: { at: number; topics: Promise<string[]> } | undefined;

  const flush = async () => {
    if (buffer.length === 0) return;
    const rows = buffer;
    buffer = [];
    for (let i = 0; i < rows.length; i += 1000) await db.insert(topicSearches).values(rows.slice(i, i + 1000));
  };
  const prune = () => db.delete(topicSearches).where(lt(topicSearches.searchedAt, sql`now() - interval '1 day'`));

  const flushTimer = setInterval(() => flush().catch(onError), FLUSH_MS);
  const pruneTimer = setInterval(() => prune().catch(onError), PRUNE_EVERY_MS);
  flushTimer.unref();
  pruneTimer.unref();

  return {
    record(topics: string[]) {
      const searchedAt = new Date();
      for (const topic of topics) buffer.push({ topic, searchedAt });
    },
    popular(): Promise<string[]> {
      const now = Date.now();
      if (cached && now - cached.at < POPULAR_CACHE_MS) return cached.topics;
      const topics = db
        .select({ topic: topicSearches.topic, n: sql<number>`count(*)` })
        .from(topicSearches)
        .where(gt(topicSearches.searchedAt, sql`now() - interval '1 hour'`))
        .groupBy(topicSearches.topic)
        .orderBy(desc(sql`count(*)`), topicSearches.topic)
        .limit(POPULAR_COUNT)
        .then((rows) => rows.map((r) => r.topic));
      cached = { at: now, topics };
      topics.catch(() => (cached = undefined));
      return topics;
    },
    /** Writes what is buffered now (tests, shutdown). */
    flush,
    prune,
    async close() {
      clearInterval(flushTimer);
      clearInterval(pruneTimer);
      await flush();
    },
  };
}
export type TopicStats = ReturnType<typeof topicStats>;
