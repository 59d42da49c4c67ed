import { inArray, or } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { userBlocks } from '../db/schema.ts';

const CACHE_MS = 10 * 60_000;

/**
 * Who a user must never meet: the users they blocked and those who blocked them. Loaded when the
 * user connects (so starting a search does not wait for the database) and cached. One query is in
 * flight at a time and the loads asked meanwhile share the next one: a lone load costs one query
 * without any wait, and a burst of connections is a handful of queries.
 * `forget` drops a user's entry at once (call it when a block is added or removed).
 */
export function blockLists(db: Db, onError: (err: unknown) => void = () => undefined) {
  const cache = new Map<string, { at: number; blocked: Promise<ReadonlySet<string>> }>();
  type Waiter = { resolve(s: ReadonlySet<string>): void; reject(e: unknown): void };
  let queued: Map<string, Waiter[]> | undefined;
  let busy = false;

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

  // Loads asked in the same event-loop turn go together; then whatever queued during a query.
  const pump = () => {
    const ids = queued;
    if (busy || !ids) return;
    queued = undefined;
    busy = true;
    void query(ids).finally(() => {
      busy = false;
      pump();
    });
  };

  const load = (userId: string) =>
    new Promise<ReadonlySet<string>>((resolve, reject) => {
      if (!queued) {
        queued = new Map();
        if (!busy) setImmediate(pump);
      }
      queued.set(userId, [...(queued.get(userId) ?? []), { resolve, reject }]);
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
