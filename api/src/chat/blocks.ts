import { eq, or } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { userBlocks } from '../db/schema.ts';

const CACHE_MS = 60_000;

/**
 * Who a user must never meet: the users they blocked and those who blocked them. Loaded when a
 * search starts and cached briefly so a busy queue does not query the database per skip;
 * `forget` drops a user's entry at once (call it when a block is added or removed).
 */
export function blockLists(db: Db) {
  const cache = new Map<string, { at: number; blocked: Promise<ReadonlySet<string>> }>();
  const load = async (userId: string): Promise<ReadonlySet<string>> => {
    const rows = await db
      .select({ blockerId: userBlocks.blockerId, blockedId: userBlocks.blockedId })
      .from(userBlocks)
      .where(or(eq(userBlocks.blockerId, userId), eq(userBlocks.blockedId, userId)));
    return new Set(rows.map((r) => (r.blockerId === userId ? r.blockedId : r.blockerId)));
  };
  return {
    of(userId: string): Promise<ReadonlySet<string>> {
      const now = Date.now();
      const hit = cache.get(userId);
      if (hit && now - hit.at < CACHE_MS) return hit.blocked;
      const blocked = load(userId);
      cache.set(userId, { at: now, blocked });
      blocked.catch(() => cache.delete(userId));
      if (cache.size > 50_000) for (const [id, e] of cache) if (now - e.at >= CACHE_MS) cache.delete(id);
      return blocked;
    },
    forget(userId: string) {
      cache.delete(userId);
    },
  };
}
export type BlockLists = ReturnType<typeof blockLists>;
