import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { customEmoji, ownedItems, storeItems } from '../db/schema.ts';

/** How often each process reads who has started owning emoji since its last look, in any process. */
export const OWNERS_POLL_MS = 2_000;
/** A row's created_at is its transaction's start but visible only from its commit: each look reads this far back. */
const POLL_LOOKBACK_MS = 60_000;

type Row = { now_ms: number; user_id: string | null; at_ms: number | null };

/**
 * Who owns any emoji (a pack or an upload), in memory: most people own none, and their
 * connection then costs no query for them. Read whole at start; every OWNERS_POLL_MS the rows
 * created since the last look add their users, who are handed to `started` (so a pack bought
 * through another process is loaded here too). Until the first read has finished, or after a
 * look failed, everyone may own some.
 */
export function emojiOwners(db: Db, started: (userId: string) => void, onError: (err: unknown) => void, pollMs = OWNERS_POLL_MS) {
  let owners: Set<string> | undefined;
  let lookedAt = 0;
  /** Rows the looks have seen and still read back (`user item` → created_at ms). */
  const seen = new Map<string, number>();
  let looking: Promise<void> | undefined;

  const readAll = async () => {
    const { rows } = await db.execute<Row>(sql`
      select (extract(epoch from now()) * 1000)::float8 as now_ms, o.user_id, null::float8 as at_ms from (select 1) as one
      left join (
        select ${ownedItems.userId} as user_id from ${ownedItems}
          join ${storeItems} on ${storeItems.id} = ${ownedItems.itemId} where ${storeItems.kind} = 'emojiPack'
        union select ${customEmoji.ownerId} from ${customEmoji} where ${customEmoji.deletedAt} is null
      ) as o on true`);
    lookedAt = rows[0]!.now_ms;
    seen.clear();
    owners = new Set(rows.flatMap((r) => (r.user_id ? [r.user_id] : [])));
  };

  const readNew = async (known: Set<string>) => {
    const since = sql`to_timestamp(${(lookedAt - POLL_LOOKBACK_MS) / 1000})`;
    const { rows } = await db.execute<Row & { item: string }>(sql`
      select (extract(epoch from now()) * 1000)::float8 as now_ms, n.user_id, n.item, n.at_ms from (select 1) as one
      left join (
        select ${ownedItems.userId} as user_id, ${ownedItems.itemId} as item,
            (extract(epoch from ${ownedItems.createdAt}) * 1000)::float8 as at_ms
          from ${ownedItems} join ${storeItems} on ${storeItems.id} = ${ownedItems.itemId}
          where ${storeItems.kind} = 'emojiPack' and ${ownedItems.createdAt} > ${since}
        union all
        select ${customEmoji.ownerId}, ${customEmoji.name}, (extract(epoch from ${customEmoji.createdAt}) * 1000)::float8
          from ${customEmoji} where ${customEmoji.createdAt} > ${since}
      ) as n on true`);
    for (const r of rows) {
      if (r.user_id === null || r.at_ms === null) continue;
      const key = `${r.user_id} ${r.item}`;
      if (seen.get(key) === r.at_ms) continue;
      seen.set(key, r.at_ms);
      known.add(r.user_id);
      started(r.user_id);
    }
    lookedAt = rows[0]!.now_ms;
    for (const [key, at] of seen) if (at <= lookedAt - POLL_LOOKBACK_MS) seen.delete(key);
  };

  const look = () =>
    (looking ??= (owners ? readNew(owners) : readAll())
      .catch((err: unknown) => {
        // A missed look could hide a purchase: everyone may own some until a full read succeeds.
        owners = undefined;
        onError(err);
      })
      .finally(() => {
        looking = undefined;
      }));
  const ready = look();
  const poller = setInterval(() => void look(), pollMs);
  poller.unref();

  return {
    /** False only when the user is known to own no emoji. */
    mayOwn: (userId: string) => owners?.has(userId) ?? true,
    /** This process sold a pack or stored an upload: counted at once. */
    add(userId: string) {
      owners?.add(userId);
    },
    ready,
    /** Reads the rows written since the last look now (tests; a poll does it every OWNERS_POLL_MS). */
    look,
    async close() {
      clearInterval(poller);
      await looking;
    },
  };
}
