import { desc, lt, gt, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { topicSearchCounts } from '../db/schema.ts';

const FLUSH_MS = 2_000;
const POPULAR_CACHE_MS = 10_000;
const PRUNE_EVERY_MS = 60 * 60_000;
const POPULAR_COUNT = 10;
/** A user's search counts for a topic once in this long: one account cannot push a topic up. */
const PER_USER_WINDOW_MS = 60 * 60_000;
/** And for this many distinct topics in that time, which bounds what is remembered per user. */
const TOPICS_PER_USER_WINDOW = 30;
const FORGET_EVERY_MS = 5 * 60_000;

/**
 * Topic statistics for the "popular topics" suggestions. Searches are counted in memory per topic
 * and minute, and every FLUSH_MS the counts are added to their rows in one upsert (never a query
 * per search, and as many rows as distinct topics, not searches); the top ten of the last hour are
 * cached for POPULAR_CACHE_MS; minutes older than a day are deleted every hour. Several API
 * processes add to the same rows. A user counts once per topic and hour, for at most
 * TOPICS_PER_USER_WINDOW topics (in each process), so the suggestions say what many people look
 * for, not what one account repeats.
 */
export function topicStats(db: Db, onError: (err: unknown) => void) {
  // minute (epoch ms) → topic → searches not yet written.
  let counts = new Map<number, Map<string, number>>();
  let cached: { at: number; topics: Promise<string[]> } | undefined;
  // Per user: the topics counted in their current window, and when that window ends.
  const counted = new Map<string, { until: number; topics: Set<string> }>();

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
  const forgetTimer = setInterval(() => {
    const now = Date.now();
    for (const [userId, w] of counted) if (w.until <= now) counted.delete(userId);
  }, FORGET_EVERY_MS);
  flushTimer.unref();
  pruneTimer.unref();
  forgetTimer.unref();

  return {
    record(userId: string, topics: string[]) {
      const now = Date.now();
      const minute = Math.floor(now / 60_000) * 60_000;
      let perTopic = counts.get(minute);
      let w = counted.get(userId);
      if (!w || w.until <= now) counted.set(userId, (w = { until: now + PER_USER_WINDOW_MS, topics: new Set() }));
      for (const topic of topics) {
        if (w.topics.has(topic) || w.topics.size >= TOPICS_PER_USER_WINDOW) continue;
        w.topics.add(topic);
        if (!perTopic) counts.set(minute, (perTopic = new Map()));
        perTopic.set(topic, (perTopic.get(topic) ?? 0) + 1);
      }
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
      clearInterval(forgetTimer);
      await flush();
    },
  };
}
export type TopicStats = ReturnType<typeof topicStats>;
