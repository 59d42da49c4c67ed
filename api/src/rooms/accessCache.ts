import type { Access } from './membership.ts';

/**
 * Members' access to rooms as last read, for posting: a busy conversation would otherwise read
 * the same room, membership, mute and ban once per message. Only access that let someone in is
 * kept. What changes access forgets it at once, on every server of a cluster
 * (RoomCore.accessChanged, and its removed, muted and blocked); `ttlMs` bounds how long a
 * change whose notice was lost (Redis away) goes unseen.
 */
export function accessCache(opts: { ttlMs: number; max: number; now?: () => number }) {
  const now = opts.now ?? Date.now;
  const rooms = new Map<string, Map<string, { access: Access; at: number }>>();
  let size = 0;
  // Bumped by every change: a read that started before a change is not kept after it.
  let generation = 0;
  const forgetAll = () => {
    rooms.clear();
    size = 0;
  };
  return {
    get(roomId: string, userId: string): Access | undefined {
      const room = rooms.get(roomId);
      const e = room?.get(userId);
      if (!e) return undefined;
      if (now() - e.at < opts.ttlMs) return e.access;
      room!.delete(userId);
      size--;
      return undefined;
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
      room.set(userId, { access, at: now() });
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
