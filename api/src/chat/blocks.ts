import { inArray, or } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { userBlocks } from '../db/schema.ts';

const CACHE_MS = 10 * 60_000;
// PGlite runs queries on the event loop (about 1 ms each): under a stream of connections, queries
// start at most this often, each answering every load asked since the previous one.
const MIN_GAP_MS = 5;

/**
 * Who a user must never meet: the users they blocked and those who blocked them. Loaded when the
 * user connects (so starting a search does not wait for the database) and cached. One query is in
 * flight at a time, at most one per MIN_GAP_MS, and the loads asked meanwhile share the next one:
 * a lone load is one query without waiting, and a burst of connections is a handful of queries.
 * `forget` drops a user's entry at once (call it when a block is added or removed).
 */
export function blockLists(db: Db, onError: (err: unknown) => void = () => undefined) {
  const cache = new Map<string, { at: number; blocked: Promise<ReadonlySet<string>> }>();
  type Waiter = { resolve(s: ReadonlySet<string>): void; reject(e: unknown): void };
  let queued: Map<string, Waiter[]> | undefined;
  let busy = false;
  let timer: NodeJS.Timeout | undefined;
  let lastStart = -Infinity;

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

  return {
    of(userId: string): Promise<ReadonlySet<string>> {
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
      cache.delete(userId);
    },
  };
}
export type BlockLists = ReturnType<typeof blockLists>;
