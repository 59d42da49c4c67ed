import { and, eq } from 'drizzle-orm';
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
