import { and, desc, eq, gt, gte, inArray, isNull, lt, lte, notExists, sql } from 'drizzle-orm';
import { ESTABLISHED_ACCOUNT_DAYS, ESTABLISHED_REAL_CHATS } from '@parley/contract/safety';
import { INVISIBLE_CHARS, LINK_LIKE, MISLEADING_CHARS } from '@parley/contract/text';
import type { Db } from '../db/client.ts';
import { hiddenTopics, topicSearchCounts, users } from '../db/schema.ts';

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
 * Only established accounts count: verified, not banned, at least ESTABLISHED_ACCOUNT_DAYS old and
 * with ESTABLISHED_REAL_CHATS real chats (1:1 chats in which both spoke; fresh accounts chatting
 * with each other earn those, not the age). A handful of accounts made for the purpose cannot push
 * a topic into everyone's suggestions.
 */
const STANDING_CACHE_MS = 60 * 60_000;
/** A topic is suggested only once this many established accounts searched it in the hour. */
export const POPULAR_MIN_SEARCHES = 5;
/**
 * Dots a link can be written with to slip past a plain check: ideographic and other stops, "[.]",
 * "(dot)". A bare " dot " stays a word ("polka dot dress").
 */
const DISGUISED_DOTS = /\s*(?:[\u3002\uFF0E\uFF61\u2024\u2027\u30FB]|[[({]\s*(?:\.|dot)\s*[\])}])\s*/giu;

/** Text no suggestion may carry: a link however written, or characters that hide or reorder text. */
export function unfitTopic(topic: string): boolean {
  if (MISLEADING_CHARS.test(topic) || INVISIBLE_CHARS.test(topic)) return true;
  const plain = topic.normalize('NFKC');
  return LINK_LIKE.test(plain) || LINK_LIKE.test(plain.replace(DISGUISED_DOTS, '.'));
}

/**
 * Topic statistics for the "popular topics" suggestions. Searches are counted in memory per topic
 * and minute, and every FLUSH_MS the counts are added to their rows in one upsert (never a query
 * per search, and as many rows as distinct topics, not searches); the top ten of the last hour are
 * cached for POPULAR_CACHE_MS; minutes older than a day are deleted every hour. Several API
 * processes add to the same rows. A user counts once per topic and hour, for at most
 * TOPICS_PER_USER_WINDOW topics (in each process), so the suggestions say what many people look
 * for, not what one account repeats. Only established accounts count, topics that look like a
 * link or hide characters never do, and moderators can hide a topic.
 */
export function topicStats(db: Db, onError: (err: unknown) => void) {
  // minute (epoch ms) → topic → the users whose searches are not yet written.
  let counts = new Map<number, Map<string, string[]>>();
  // userId → whether the account has standing, until when that answer holds.
  const standing = new Map<string, { ok: boolean; until: number }>();
  const withStanding = async (ids: string[]): Promise<Set<string>> => {
    const now = Date.now();
    const unknown = ids.filter((id) => !((standing.get(id)?.until ?? 0) > now));
    for (let i = 0; i < unknown.length; i += 1000) {
      const chunk = unknown.slice(i, i + 1000);
      const rows = await db
        .select({ id: users.id })
        .from(users)
        .where(
          and(
            inArray(users.id, chunk),
            eq(users.isVerified, true),
            isNull(users.bannedAt),
            gte(users.realChats, ESTABLISHED_REAL_CHATS),
            lte(users.createdAt, sql`now() - make_interval(days => ${ESTABLISHED_ACCOUNT_DAYS})`),
          ),
        );
      const ok = new Set(rows.map((r) => r.id));
      for (const id of chunk) standing.set(id, { ok: ok.has(id), until: now + STANDING_CACHE_MS });
    }
    return new Set(ids.filter((id) => standing.get(id)?.ok));
  };
  let cached: { at: number; topics: Promise<string[]> } | undefined;
  // Per user: the topics counted in their current window, and when that window ends.
  const counted = new Map<string, { until: number; topics: Set<string> }>();

  const flush = async () => {
    if (counts.size === 0) return;
    const pending = counts;
    counts = new Map();
    const ids = new Set<string>();
    for (const topics of pending.values()) for (const who of topics.values()) for (const id of who) ids.add(id);
    const counted = await withStanding([...ids]);
    const rows = [...pending].flatMap(([minute, topics]) =>
      [...topics]
        .map(([topic, who]) => ({ minute: new Date(minute), topic, searches: who.filter((id) => counted.has(id)).length }))
        .filter((r) => r.searches > 0),
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
    for (const [userId, s] of standing) if (s.until <= now) standing.delete(userId);
  }, FORGET_EVERY_MS);
  flushTimer.unref();
  pruneTimer.unref();
  forgetTimer.unref();

  return {
    record(userId: string, topics: string[]) {
      // Most searches name no topic: they open no window (a window per searcher was most of this map).
      if (topics.length === 0) return;
      const now = Date.now();
      const minute = Math.floor(now / 60_000) * 60_000;
      let perTopic = counts.get(minute);
      let w = counted.get(userId);
      if (!w || w.until <= now) counted.set(userId, (w = { until: now + PER_USER_WINDOW_MS, topics: new Set() }));
      for (const topic of topics) {
        if (w.topics.has(topic) || w.topics.size >= TOPICS_PER_USER_WINDOW || unfitTopic(topic)) continue;
        w.topics.add(topic);
        if (!perTopic) counts.set(minute, (perTopic = new Map()));
        const who = perTopic.get(topic);
        if (who) who.push(userId);
        else perTopic.set(topic, [userId]);
      }
    },
    popular(): Promise<string[]> {
      const now = Date.now();
      if (cached && now - cached.at < POPULAR_CACHE_MS) return cached.topics;
      const topics = db
        .select({ topic: topicSearchCounts.topic })
        .from(topicSearchCounts)
        .where(
          and(
            gt(topicSearchCounts.minute, sql`now() - interval '1 hour'`),
            notExists(
              db
                .select({ one: sql`1` })
                .from(hiddenTopics)
                .where(eq(hiddenTopics.topic, topicSearchCounts.topic)),
            ),
          ),
        )
        .groupBy(topicSearchCounts.topic)
        .having(sql`sum(${topicSearchCounts.searches}) >= ${POPULAR_MIN_SEARCHES}`)
        .orderBy(desc(sql`sum(${topicSearchCounts.searches})`), topicSearchCounts.topic)
        .limit(POPULAR_COUNT)
        .then((rows) => rows.map((r) => r.topic));
      cached = { at: now, topics };
      topics.catch(() => (cached = undefined));
      return topics;
    },
    /** A moderator hides a topic from the suggestions, or shows it again. */
    async setHidden(topic: string, hidden: boolean, by: string) {
      if (hidden) await db.insert(hiddenTopics).values({ topic, hiddenBy: by }).onConflictDoNothing();
      else await db.delete(hiddenTopics).where(eq(hiddenTopics.topic, topic));
      cached = undefined;
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
