import type { OnlineUser } from '@parley/contract/presence';

/**
 * Who is online: per user, however many tabs (sockets) they have. Asynchronous so a Redis-backed
 * implementation (several API processes) can replace the in-process one without touching callers.
 * Pages are ordered by userId, so a cursor (the last userId of a page) stays valid while people
 * come and go; a page costs O(log online + page), the count O(1).
 */
export interface Presence {
  /** Records a socket; resolves true when its user just came online. */
  join(socketId: string, user: OnlineUser): Promise<boolean>;
  /** Forgets a socket; resolves true when it was its user's last one. */
  leave(socketId: string, userId: string): Promise<boolean>;
  /** At most `limit` online users whose userId sorts after `after` (from the start when null). */
  page(after: string | null, limit: number): Promise<OnlineUser[]>;
  /** Those of `userIds` who are online, in that order. */
  online(userIds: readonly string[]): Promise<OnlineUser[]>;
  count(): Promise<number>;
  isOnline(userId: string): Promise<boolean>;
}

/** The index of the first id in the sorted `ids` that sorts after `after`. */
function firstAfter(ids: readonly string[], after: string): number {
  let lo = 0;
  let hi = ids.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ids[mid]! <= after) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function createInProcessPresence(): Presence {
  const users = new Map<string, { user: OnlineUser; sockets: Set<string> }>();
  // The userIds in order, for pages by binary search (an insertion moves memory, it walks nothing).
  const sorted: string[] = [];
  return {
    async join(socketId, user) {
      const entry = users.get(user.userId);
      if (entry) {
        entry.sockets.add(socketId);
        return false;
      }
      users.set(user.userId, { user, sockets: new Set([socketId]) });
      sorted.splice(firstAfter(sorted, user.userId), 0, user.userId);
      return true;
    },
    async leave(socketId, userId) {
      const entry = users.get(userId);
      if (!entry || !entry.sockets.delete(socketId) || entry.sockets.size > 0) return false;
      users.delete(userId);
      sorted.splice(firstAfter(sorted, userId) - 1, 1);
      return true;
    },
    async page(after, limit) {
      const from = after === null ? 0 : firstAfter(sorted, after);
      return sorted.slice(from, from + limit).map((id) => users.get(id)!.user);
    },
    async online(userIds) {
      return userIds.flatMap((id) => users.get(id)?.user ?? []);
    },
    async count() {
      return users.size;
    },
    async isOnline(userId) {
      return users.has(userId);
    },
  };
}
