import { inArray, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { userBlocks } from '../db/schema.ts';

const CACHE_MS = 10 * 60_000;
// PGlite runs queries on the event loop (about 1 ms each): under a stream of connections, queries
// start at most this often, each answering every load asked since the previous one.
const MIN_GAP_MS = 5;
/** How often each process reads the blocks written since its last look, by any process. */
export const BLOCKS_POLL_MS = 1_000;
/**
 * A row's created_at is its transaction's start, but it is visible only from the commit: each
 * look reads this far back, so that a row committed late is not missed.
 */
const POLL_LOOKBACK_MS = 60_000;
const NONE: ReadonlySet<string> = new Set();

type PollRow = { now_ms: number; blocker_id: string | null; blocked_id: string | null; at_ms: number | null };

/**
 * Who a user must never meet: the users they blocked and those who blocked them. Loaded when the
 * user connects (so starting a search does not wait for the database) and cached.
 *
 * Most users are in no block at all, and they cost no query: the ids in any block, on either side,
 * are held in memory (read once at start), and every BLOCKS_POLL_MS the rows created since the
 * last look add their two users to them and drop their cached lists. So a block written by any
 * process counts everywhere within a poll. Until the first read has finished, or after a look
 * failed, every user is looked up.
 *
 * Lookups: one query in flight at a time, at most one per MIN_GAP_MS, and the loads asked
 * meanwhile share the next one: a lone load is one query without waiting, and a burst of
 * connections is a handful of queries. `forget` drops a user's entry at once and counts them as
 * in a block (call it for both users when this process adds or removes a block).
 */
export function blockLists(db: Db, onError: (err: unknown) => void = () => undefined, pollMs = BLOCKS_POLL_MS) {
  const cache = new Map<string, { at: number; blocked: Promise<ReadonlySet<string>> }>();
  type Waiter = { resolve(s: ReadonlySet<string>): void; reject(e: unknown): void };
  let queued: Map<string, Waiter[]> | undefined;
  let busy = false;
  let timer: NodeJS.Timeout | undefined;
  let lastStart = -Infinity;

  /** Users in at least one block (either side); undefined when not known. */
  let involved: Set<string> | undefined;
  /** The database clock (epoch ms) at the last look. */
  let lookedAt = 0;
  /** Rows the looks have seen and still read back (`blocker blocked` → created_at ms). */
  const seen = new Map<string, number>();
  let looking: Promise<void> | undefined;

  const query = async (ids: Map<string, Waiter[]>) => {
    try {
      const list = [...ids.keys()];
      const rows = await db
        .select({ blockerId: userBlocks.blockerId, blockedId: userBlocks.blockedId })
        .from(userBlocks)
        .where(or(inArray(userBlocks.blockerId, list), inArray(userBlocks.blockedId, list)));
      const sets = new Map(list.map((id) => [id, new Set<string>()]));
      for (const r of rows) {
        sets.get(r.blockerId)?.add(r.blockedId);
        sets.get(r.blockedId)?.add(r.blockerId);
      }
      for (const [id, ws] of ids) for (const w of ws) w.resolve(sets.get(id)!);
    } catch (err) {
      for (const ws of ids.values()) for (const w of ws) w.reject(err);
    }
  };

  const pump = () => {
    timer = undefined;
    const ids = queued;
    if (busy || !ids) return;
    queued = undefined;
    busy = true;
    lastStart = performance.now();
    void query(ids).finally(() => {
      busy = false;
      if (queued) schedule();
    });
  };
  // Loads asked in the same event-loop turn always go together.
  const schedule = () => {
    if (busy || timer) return;
    timer = setTimeout(pump, Math.max(0, lastStart + MIN_GAP_MS - performance.now()));
  };

  const load = (userId: string) =>
    new Promise<ReadonlySet<string>>((resolve, reject) => {
      queued ??= new Map();
      queued.set(userId, [...(queued.get(userId) ?? []), { resolve, reject }]);
      schedule();
    });

  /** Every id in a block, with the database clock read before them. */
  const readAll = async () => {
    const { rows } = await db.execute<{ now_ms: number }>(sql`select (extract(epoch from now()) * 1000)::float8 as now_ms`);
    const ids = await db
      .select({ id: userBlocks.blockerId })
      .from(userBlocks)
      .union(db.select({ id: userBlocks.blockedId }).from(userBlocks));
    lookedAt = rows[0]!.now_ms;
    seen.clear();
    involved = new Set(ids.map((r) => r.id));
  };

  /** The rows created since the last look (and the lookback before it). */
  const readNew = async (known: Set<string>) => {
    const { rows } = await db.execute<PollRow>(sql`
      select (extract(epoch from now()) * 1000)::float8 as now_ms, b.blocker_id, b.blocked_id,
        (extract(epoch from b.created_at) * 1000)::float8 as at_ms
      from (select 1) as one
      left join ${userBlocks} as b on b.created_at > to_timestamp(${(lookedAt - POLL_LOOKBACK_MS) / 1000})`);
    for (const r of rows) {
      if (r.blocker_id === null || r.blocked_id === null || r.at_ms === null) continue;
      const key = `${r.blocker_id} ${r.blocked_id}`;
      if (seen.get(key) === r.at_ms) continue;
      seen.set(key, r.at_ms);
      for (const id of [r.blocker_id, r.blocked_id]) {
        known.add(id);
        cache.delete(id);
      }
    }
    lookedAt = rows[0]!.now_ms;
    for (const [key, at] of seen) if (at <= lookedAt - POLL_LOOKBACK_MS) seen.delete(key);
  };

  const look = () =>
    (looking ??= (involved ? readNew(involved) : readAll())
      .catch((err: unknown) => {
        // A missed look could hide a block: look everyone up until a full read succeeds.
        involved = undefined;
        cache.clear();
        onError(err);
      })
      .finally(() => {
        looking = undefined;
      }));
  const ready = look();
  const poller = setInterval(() => void look(), pollMs);
  poller.unref();

  return {
    of(userId: string): Promise<ReadonlySet<string>> {
      if (involved && !involved.has(userId)) return Promise.resolve(NONE);
      const now = Date.now();
      const hit = cache.get(userId);
      if (hit && now - hit.at < CACHE_MS) return hit.blocked;
      const blocked = load(userId);
      cache.set(userId, { at: now, blocked });
      blocked.catch((err: unknown) => {
        cache.delete(userId);
        onError(err);
      });
      if (cache.size > 100_000) for (const [id, e] of cache) if (now - e.at >= CACHE_MS) cache.delete(id);
      return blocked;
    },
    forget(userId: string) {
      involved?.add(userId);
      cache.delete(userId);
    },
    /** Settles when the first read of who is in a block has finished (or failed). */
    ready,
    /** Reads the rows written since the last look now (tests; a poll does it every BLOCKS_POLL_MS). */
    look,
    async close() {
      clearInterval(poller);
      await looking;
    },
  };
}
export type BlockLists = ReturnType<typeof blockLists>;
