import { and, eq, inArray, or } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { friendships } from '../db/schema.ts';

/** The stored order of a pair: the smaller id first, so each friendship has one row. */
export function friendPair(a: string, b: string): { userLow: string; userHigh: string } {
  return a < b ? { userLow: a, userHigh: b } : { userLow: b, userHigh: a };
}

export async function areFriends(db: Db, a: string, b: string): Promise<boolean> {
  if (a === b) return false;
  const pair = friendPair(a, b);
  const rows = await db
    .select({ createdAt: friendships.createdAt })
    .from(friendships)
    .where(and(eq(friendships.userLow, pair.userLow), eq(friendships.userHigh, pair.userHigh)))
    .limit(1);
  return rows.length > 0;
}

/** The ids of the friends of each of `userIds` (no profiles), in one query: what presence needs to put them first. */
export async function friendIdsOf(db: Db, userIds: readonly string[]): Promise<Map<string, string[]>> {
  const out = new Map(userIds.map((id) => [id, [] as string[]]));
  if (userIds.length === 0) return out;
  const ids = [...out.keys()];
  const rows = await db
    .select({ low: friendships.userLow, high: friendships.userHigh })
    .from(friendships)
    .where(or(inArray(friendships.userLow, ids), inArray(friendships.userHigh, ids)));
  for (const r of rows) {
    out.get(r.low)?.push(r.high);
    out.get(r.high)?.push(r.low);
  }
  return out;
}
