import { and, eq, or } from 'drizzle-orm';
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

/** The ids of a user's friends (no profiles): what presence needs to put them first. */
export async function friendIdsOf(db: Db, userId: string): Promise<string[]> {
  const rows = await db
    .select({ low: friendships.userLow, high: friendships.userHigh })
    .from(friendships)
    .where(or(eq(friendships.userLow, userId), eq(friendships.userHigh, userId)));
  return rows.map((r) => (r.low === userId ? r.high : r.low));
}
