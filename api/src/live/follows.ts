import { and, count, eq, isNull, sql } from 'drizzle-orm';
import { WENT_LIVE_NOTICE_INTERVAL_S, type LiveFollowState, type LiveStream } from '@parley/contract/live';
import type { Db } from '../db/client.ts';
import { liveFollows, userBlocks, users } from '../db/schema.ts';
import type { Notifier } from '../deps.ts';
import { DomainError } from '../platform/errors.ts';
import type { Limiter } from '../platform/rateLimit.ts';
import type { Logger } from '../platform/logger.ts';
import { words } from '../platform/i18n/i18n.ts';

/** Follows of broadcasters in PostgreSQL: who follows whom, and who hears of a stream. */
const WENT_LIVE = /*i18n*/ { id: 'notice.wentLive', message: '{name} is live: {title}' };

export function followStore(db: Db) {
  return {
    async exists(userId: string): Promise<boolean> {
      const [row] = await db
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.id, userId), isNull(users.deletedAt)));
      return row !== undefined;
    },
    async follow(followerId: string, broadcasterId: string): Promise<void> {
      await db.insert(liveFollows).values({ followerId, broadcasterId }).onConflictDoNothing();
    },
    async unfollow(followerId: string, broadcasterId: string): Promise<void> {
      await db.delete(liveFollows).where(and(eq(liveFollows.followerId, followerId), eq(liveFollows.broadcasterId, broadcasterId)));
    },
    async state(followerId: string, broadcasterId: string): Promise<LiveFollowState> {
      const [[mine], [all]] = await Promise.all([
        db
          .select({ n: count() })
          .from(liveFollows)
          .where(and(eq(liveFollows.followerId, followerId), eq(liveFollows.broadcasterId, broadcasterId))),
        db.select({ n: count() }).from(liveFollows).where(eq(liveFollows.broadcasterId, broadcasterId)),
      ]);
      return { following: Number(mine?.n ?? 0) > 0, followers: Number(all?.n ?? 0) };
    },
    /** Followers to tell, leaving out anyone blocked by, or blocking, the broadcaster. */
    async audience(broadcasterId: string): Promise<string[]> {
      const rows = await db
        .select({ id: liveFollows.followerId })
        .from(liveFollows)
        .where(
          and(
            eq(liveFollows.broadcasterId, broadcasterId),
            sql`not exists (select 1 from ${userBlocks} b where (b.blocker_id = ${liveFollows.followerId} and b.blocked_id = ${broadcasterId})
              or (b.blocker_id = ${broadcasterId} and b.blocked_id = ${liveFollows.followerId}))`,
          ),
        );
      return rows.map((r) => r.id);
    },
  };
}
export type FollowStore = ReturnType<typeof followStore>;

/** Following and unfollowing: never yourself, never a missing account. */
export function follows(store: FollowStore) {
  const check = async (followerId: string, broadcasterId: string) => {
    if (followerId === broadcasterId) throw new DomainError('invalid', 'You cannot follow yourself.', 'follow_self');
    if (!(await store.exists(broadcasterId))) throw new DomainError('not_found', 'That person could not be found.', 'user_not_found');
  };
  return {
    async follow(followerId: string, broadcasterId: string): Promise<LiveFollowState> {
      await check(followerId, broadcasterId);
      await store.follow(followerId, broadcasterId);
      return store.state(followerId, broadcasterId);
    },
    async unfollow(followerId: string, broadcasterId: string): Promise<LiveFollowState> {
      await check(followerId, broadcasterId);
      await store.unfollow(followerId, broadcasterId);
      return store.state(followerId, broadcasterId);
    },
    state: (followerId: string, broadcasterId: string) => store.state(followerId, broadcasterId),
  };
}

/**
 * Tells a broadcaster's followers that a stream started (through the Notifier: in the app and by
 * push, by each follower's preferences and quiet hours). A broadcaster who starts and stops in a
 * loop reaches their followers once per WENT_LIVE_NOTICE_INTERVAL_S. LiveStreams calls this once per
 * stream (when its media first arrives).
 */
export function wentLiveNotices(deps: { store: FollowStore; notifier: () => Notifier | undefined; limiter: Limiter; log: Logger }) {
  return async (stream: LiveStream): Promise<number> => {
    const notifier = deps.notifier();
    if (!notifier) return 0;
    const take = await deps.limiter.take(stream.broadcaster.userId);
    if (!take.ok) return 0;
    const followers = await deps.store.audience(stream.broadcaster.userId);
    const notice = {
      kind: 'wentLive' as const,
      words: words(WENT_LIVE, { name: stream.broadcaster.username, title: stream.title }),
      link: `/livestream/${stream.roomId}`,
    };
    const sent = await Promise.allSettled(followers.map((id) => notifier.notify(id, notice)));
    for (const r of sent) if (r.status === 'rejected') deps.log.warn({ err: r.reason }, 'went-live notice failed');
    return followers.length;
  };
}

/** Seconds between two went-live notices of one broadcaster, for the limiter. */
export const WENT_LIVE_LIMIT = { keyPrefix: 'live-went-live', points: 1, durationSeconds: WENT_LIVE_NOTICE_INTERVAL_S };
