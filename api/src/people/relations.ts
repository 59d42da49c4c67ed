import { and, eq, or } from 'drizzle-orm';
import type { Relation } from '@parley/contract/people';
import type { Db } from '../db/client.ts';
import { friendRequests, userBlocks } from '../db/schema.ts';
import { areFriends } from './friendships.ts';

/** How `viewer` stands with `other`: what a profile shows and which actions it offers. */
export async function relationOf(db: Db, viewer: string, other: string): Promise<Relation> {
  if (viewer === other) return 'self';
  const [blocked] = await db
    .select({ by: userBlocks.blockerId })
    .from(userBlocks)
    .where(
      or(
        and(eq(userBlocks.blockerId, viewer), eq(userBlocks.blockedId, other)),
        and(eq(userBlocks.blockerId, other), eq(userBlocks.blockedId, viewer)),
      ),
    )
    .limit(1);
  if (blocked) return 'blocked';
  if (await areFriends(db, viewer, other)) return 'friend';
  const [req] = await db
    .select({ fromId: friendRequests.fromId })
    .from(friendRequests)
    .where(
      or(
        and(eq(friendRequests.fromId, viewer), eq(friendRequests.toId, other)),
        and(eq(friendRequests.fromId, other), eq(friendRequests.toId, viewer)),
      ),
    )
    .limit(1);
  if (req) return req.fromId === viewer ? 'requestSent' : 'requestReceived';
  return 'none';
}

/** Whether either user blocked the other. */
export async function eitherBlocked(db: Db, a: string, b: string): Promise<boolean> {
  return (await relationOf(db, a, b)) === 'blocked';
}
