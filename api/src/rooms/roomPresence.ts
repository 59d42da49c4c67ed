/**
 * Who has a stored room open now, in this process: room → user → their sockets there. With several
 * API processes each knows its own sockets' people; a shared store would sit behind this shape.
 */
export function roomPresence() {
  const rooms = new Map<string, Map<string, Set<string>>>();
  const socketRooms = new Map<string, Set<string>>();
  return {
    /** True when the user was not here before (someone arrived). */
    enter(roomId: string, userId: string, socketId: string): boolean {
      let users = rooms.get(roomId);
      if (!users) rooms.set(roomId, (users = new Map()));
      let sockets = users.get(userId);
      const arrived = !sockets;
      if (!sockets) users.set(userId, (sockets = new Set()));
      sockets.add(socketId);
      let mine = socketRooms.get(socketId);
      if (!mine) socketRooms.set(socketId, (mine = new Set()));
      mine.add(roomId);
      return arrived;
    },
    /** True when the user's last socket in the room left. */
    leave(roomId: string, userId: string, socketId: string): boolean {
      socketRooms.get(socketId)?.delete(roomId);
      const users = rooms.get(roomId);
      const sockets = users?.get(userId);
      if (!users || !sockets?.delete(socketId) || sockets.size > 0) return false;
      users.delete(userId);
      if (users.size === 0) rooms.delete(roomId);
      return true;
    },
    /** The rooms a closed socket's user is no longer in. */
    leaveAll(userId: string, socketId: string): string[] {
      const left: string[] = [];
      for (const roomId of socketRooms.get(socketId) ?? []) if (this.leave(roomId, userId, socketId)) left.push(roomId);
      socketRooms.delete(socketId);
      return left;
    },
    leaveUser(roomId: string, userId: string): boolean {
      const users = rooms.get(roomId);
      const sockets = users?.get(userId);
      if (!users || !sockets) return false;
      for (const s of sockets) socketRooms.get(s)?.delete(roomId);
      users.delete(userId);
      if (users.size === 0) rooms.delete(roomId);
      return true;
    },
    /** The room is gone (a stream ended): nobody has it open any more. */
    forget(roomId: string) {
      for (const sockets of rooms.get(roomId)?.values() ?? []) for (const s of sockets) socketRooms.get(s)?.delete(roomId);
      rooms.delete(roomId);
    },
    has(roomId: string, socketId: string): boolean {
      return socketRooms.get(socketId)?.has(roomId) ?? false;
    },
    usersIn(roomId: string): string[] {
      return [...(rooms.get(roomId)?.keys() ?? [])];
    },
    count(roomId: string): number {
      return rooms.get(roomId)?.size ?? 0;
    },
  };
}
