import { desc, lt, gt, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { topicSearchCounts } from '../db/schema.ts';

const FLUSH_MS = 2_000;
const POPULAR_CACHE_MS = 10_000;
const PRUNE_EVERY_MS = 60 * 60_000;
const POPULAR_COUNT = 10;

/**
 * Topic statistics for the "popular topics" suggestions. Searches are counted in memory per topic
 * and minute, and every FLUSH_MS the counts are added to their rows in one upsert (never a query
 * per search, and as many rows as distinct topics, not searches); the top ten of the last hour are
 * cached for POPULAR_CACHE_MS; minutes older than a day are deleted every hour. Several API
 * processes add to the same rows.
 */
export function topicStats(db: Db, onError: (err: unknown) => void) {
  // minute (epoch ms) → topic → searches not yet written.
  let counts = new Map<number, Map<string, number>>();
  let cached: { at: number; topics: Promise<string[]> } | undefined;

  const flush = async () => {
    if (counts.size === 0) return;
    const pending = counts;
    counts = new Map();
    const rows = [...pending].flatMap(([minute, topics]) =>
      [...topics].map(([topic, searches]) => ({ minute: new Date(minute), topic, searches })),
    );
    for (let i = 0; i < rows.length; i += 1000)
      await db
        .insert(topicSearchCounts)
        .values(rows.slice(i, i + 1000))
        .onConflictDoUpdate({
          target: [topicSearchCounts.topic, topicSearchCounts.minute],
          set: { searches: sql`${topicSearchCounts.searches} + excluded.searches` },
        });
  };
  const prune = () => db.delete(topicSearchCounts).where(lt(topicSearchCounts.minute, sql`now() - interval '1 day'`));

  const flushTimer = setInterval(() => flush().catch(onError), FLUSH_MS);
  const pruneTimer = setInterval(() => prune().catch(onError), PRUNE_EVERY_MS);
  flushTimer.unref();
  pruneTimer.unref();

  return {
    record(topics: string[]) {
      const minute = Math.floor(Date.now() / 60_000) * 60_000;
      let perTopic = counts.get(minute);
      if (!perTopic) counts.set(minute, (perTopic = new Map()));
      for (const topic of topics) perTopic.set(topic, (perTopic.get(topic) ?? 0) + 1);
    },
    popular(): Promise<string[]> {
      const now = Date.now();
      if (cached && now - cached.at < POPULAR_CACHE_MS) return cached.topics;
      const topics = db
        .select({ topic: topicSearchCounts.topic })
        .from(topicSearchCounts)
        .where(gt(topicSearchCounts.minute, sql`now() - interval '1 hour'`))
        .groupBy(topicSearchCounts.topic)
        .orderBy(desc(sql`sum(${topicSearchCounts.searches})`), topicSearchCounts.topic)
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
