import type { Access } from './membership.ts';

/**
 * Members' access to rooms as last read, for posting: a busy conversation would otherwise read
 * the same room, membership, mute and ban once per message. Only access that let someone in is
 * kept. What changes access forgets it at once, on every server of a cluster
 * (RoomCore.accessChanged, and its removed, muted and blocked); `ttlMs` bounds how long a
 * change whose notice was lost (Redis away) goes unseen.
 *
 * An entry in use is read again before it expires (refresh ahead, at a random point of its second
 * half-life), answering from the cache meanwhile: otherwise every member who joined in the same
 * minute would wait for a read in the same second, ttlMs later.
 */
export function accessCache(opts: { ttlMs: number; max: number; now?: () => number; random?: () => number }) {
  const now = opts.now ?? Date.now;
  const random = opts.random ?? Math.random;
  type Entry = { access: Access; at: number; refreshAt: number };
  const rooms = new Map<string, Map<string, Entry>>();
  let size = 0;
  // Bumped by every change: a read that started before a change is not kept after it.
  let generation = 0;
  const forgetAll = () => {
    rooms.clear();
    size = 0;
  };
  return {
    /** The access kept, and whether the caller should read it again now (told once per entry). */
    get(roomId: string, userId: string): { access: Access; refresh: boolean } | undefined {
      const room = rooms.get(roomId);
      const e = room?.get(userId);
      if (!e) return undefined;
      const t = now();
      if (t - e.at >= opts.ttlMs) {
        room!.delete(userId);
        size--;
        return undefined;
      }
      const refresh = t >= e.refreshAt;
      if (refresh) e.refreshAt = Infinity;
      return { access: e.access, refresh };
    },
    /** Take it before reading access; hand it back to `set` with what the read answered. */
    get generation() {
      return generation;
    },
    set(roomId: string, userId: string, access: Access, readAtGeneration: number) {
      if (readAtGeneration !== generation) return;
      // Full: start over rather than track ages (at most one read per member and room follows).
      if (size >= opts.max) forgetAll();
      let room = rooms.get(roomId);
      if (!room) rooms.set(roomId, (room = new Map()));
      if (!room.has(userId)) size++;
      const at = now();
      room.set(userId, { access, at, refreshAt: at + opts.ttlMs * (0.5 + 0.4 * random()) });
    },
    /**
     * Forgets one entry whose fresh read refused: not a change (the database says so already), so
     * reads under way are still kept.
     */
    drop(roomId: string, userId: string) {
      const room = rooms.get(roomId);
      if (room?.delete(userId)) size--;
      if (room?.size === 0) rooms.delete(roomId);
    },
    /** Access to a room changed: for one member, or for everyone in it. */
    forgetRoom(roomId: string, userId?: string) {
      generation++;
      const room = rooms.get(roomId);
      if (!room) return;
      if (userId === undefined) {
        size -= room.size;
        rooms.delete(roomId);
      } else if (room.delete(userId)) size--;
    },
    /** Something between these users changed (a friendship ended, a block): every room of theirs. */
    forgetUsers(userIds: readonly string[]) {
      generation++;
      for (const [roomId, room] of rooms) {
        for (const id of userIds) if (room.delete(id)) size--;
        if (room.size === 0) rooms.delete(roomId);
      }
    },
    get size() {
      return size;
    },
  };
}

export type AccessCache = ReturnType<typeof accessCache>;
