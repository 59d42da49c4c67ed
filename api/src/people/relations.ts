import { and, eq, or, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Relation } from '@parley/contract/people';
import type { Db } from '../db/client.ts';
import { friendRequests, userBlocks } from '../db/schema.ts';
import { areFriends } from './friendships.ts';

/** Rows of a pair table (blocks, requests) between `a` and `b`, whichever way round. */
export function eitherWay(from: AnyPgColumn, to: AnyPgColumn, a: string, b: string): SQL {
  return or(and(eq(from, a), eq(to, b)), and(eq(from, b), eq(to, a)))!;
}

/** How `viewer` stands with `other`: what a profile shows and which actions it offers. */
export async function relationOf(db: Db, viewer: string, other: string): Promise<Relation> {
  if (viewer === other) return 'self';
  const [blocked] = await db
    .select({ by: userBlocks.blockerId })
    .from(userBlocks)
    .where(eitherWay(userBlocks.blockerId, userBlocks.blockedId, viewer, other))
    .limit(1);
  if (blocked) return 'blocked';
  if (await areFriends(db, viewer, other)) return 'friend';
  const [req] = await db
    .select({ fromId: friendRequests.fromId })
    .from(friendRequests)
    .where(eitherWay(friendRequests.fromId, friendRequests.toId, viewer, other))
    .limit(1);
  if (req) return req.fromId === viewer ? 'requestSent' : 'requestReceived';
  return 'none';
}
