/**
 * Who has a stored room open now, in this process: room → user → their sockets there. With several
 * API processes each knows its own sockets' people; a shared store would sit behind this shape.
 *
 * Almost everyone has one socket in a room and one room open: one id is kept as itself, and a
 * `Set` is made only for the second (a set per user and per socket was most of this map's memory).
 */
type Ids = string | Set<string>;

function add(ids: Ids | undefined, id: string): Ids {
  if (ids === undefined || ids === id) return id;
  if (typeof ids === 'string') return new Set([ids, id]);
  ids.add(id);
  return ids;
}

/** `ids` without `id`: undefined once none is left. */
function without(ids: Ids | undefined, id: string): Ids | undefined {
  if (ids === undefined || ids === id) return undefined;
  if (typeof ids === 'string') return ids;
  ids.delete(id);
  if (ids.size > 1) return ids;
  for (const last of ids) return last;
  return undefined;
}

const holds = (ids: Ids | undefined, id: string) => (typeof ids === 'string' ? ids === id : (ids?.has(id) ?? false));
const each = (ids: Ids | undefined): Iterable<string> => (ids === undefined ? [] : typeof ids === 'string' ? [ids] : ids);

export function roomPresence() {
  const rooms = new Map<string, Map<string, Ids>>();
  const socketRooms = new Map<string, Ids>();

  const leaveSocketRoom = (socketId: string, roomId: string) => {
    const left = without(socketRooms.get(socketId), roomId);
    if (left === undefined) socketRooms.delete(socketId);
    else socketRooms.set(socketId, left);
  };

  return {
    /** True when the user was not here before (someone arrived). */
    enter(roomId: string, userId: string, socketId: string): boolean {
      let users = rooms.get(roomId);
      if (!users) rooms.set(roomId, (users = new Map()));
      const sockets = users.get(userId);
      users.set(userId, add(sockets, socketId));
      socketRooms.set(socketId, add(socketRooms.get(socketId), roomId));
      return sockets === undefined;
    },
    /** True when the user's last socket in the room left. */
    leave(roomId: string, userId: string, socketId: string): boolean {
      leaveSocketRoom(socketId, roomId);
      const users = rooms.get(roomId);
      const sockets = users?.get(userId);
      if (!users || !holds(sockets, socketId)) return false;
      const rest = without(sockets, socketId);
      if (rest !== undefined) {
        users.set(userId, rest);
        return false;
      }
      users.delete(userId);
      if (users.size === 0) rooms.delete(roomId);
      return true;
    },
    /** The rooms a closed socket's user is no longer in. */
    leaveAll(userId: string, socketId: string): string[] {
      const left: string[] = [];
      for (const roomId of [...each(socketRooms.get(socketId))]) if (this.leave(roomId, userId, socketId)) left.push(roomId);
      socketRooms.delete(socketId);
      return left;
    },
    leaveUser(roomId: string, userId: string): boolean {
      const users = rooms.get(roomId);
      const sockets = users?.get(userId);
      if (!users || sockets === undefined) return false;
      for (const s of each(sockets)) leaveSocketRoom(s, roomId);
      users.delete(userId);
      if (users.size === 0) rooms.delete(roomId);
      return true;
    },
    /** The room is gone (a stream ended): nobody has it open any more. */
    forget(roomId: string) {
      for (const sockets of rooms.get(roomId)?.values() ?? []) for (const s of each(sockets)) leaveSocketRoom(s, roomId);
      rooms.delete(roomId);
    },
    has(roomId: string, socketId: string): boolean {
      return holds(socketRooms.get(socketId), roomId);
    },
    usersIn(roomId: string): string[] {
      return [...(rooms.get(roomId)?.keys() ?? [])];
    },
    count(roomId: string): number {
      return rooms.get(roomId)?.size ?? 0;
    },
  };
}
