import type { RoomKind } from '@parley/contract/rooms';

/** Scaled out: who a member is, which process holds its socket, and its page (to take the room back from another process). */
export type Seat = { userId: string; home: string; key?: string | undefined; username?: string | undefined; avatar?: string | undefined };

/**
 * A room: its kind and the sockets of its members (with their seats when scaled out, in the same
 * order). `holder`, scaled out: the process that holds the room's messages (its first member's at
 * the match), where the other member's process forwards its room events.
 */
export type Room = { roomId: string; kind: RoomKind; members: string[]; seats?: Seat[]; holder?: string };

/** A room held for a page whose connection dropped: the socket it lost, under the page's key (user and tab). */
export type HeldRoom = { key: string; socketId: string; roomId: string; userId: string; sid: string | undefined };

/**
 * Where rooms and held rooms are kept: this process's memory, or (scaled out) a store shared by
 * every API process. Synchronous because the relay reads the sender's room for every message: a
 * shared store keeps the rooms of its own sockets in memory and writes them through.
 */
export type RoomStore = {
  room(roomId: string): Room | undefined;
  /** Adds a room, or writes a changed one back (a member back on a new socket). */
  put(room: Room): void;
  remove(roomId: string): void;
  held(key: string): HeldRoom | undefined;
  hold(held: HeldRoom): void;
  release(key: string): void;
  heldRooms(): HeldRoom[];
  /** The room as every process sees it (scaled out: read from the shared store, not this process's copy). */
  load(roomId: string): Promise<Room | undefined>;
  /**
   * Moves a member's seat to a new socket, if that member is still `previousSocketId`: true when
   * it moved (one process wins when two try).
   */
  claim(roomId: string, previousSocketId: string, socketId: string, seat: Seat): Promise<boolean>;
  /**
   * Makes `to` the process holding the room's messages if `from` (a process that died) still is:
   * the holder as it is now (one process wins when two try), undefined when the room is gone.
   */
  takeHolding(roomId: string, from: string, to: string): Promise<string | undefined>;
};

export function memoryRooms(): RoomStore {
  const rooms = new Map<string, Room>();
  const held = new Map<string, HeldRoom>();
  return {
    room: (roomId) => rooms.get(roomId),
    put(room) {
      rooms.set(room.roomId, room);
    },
    remove(roomId) {
      rooms.delete(roomId);
    },
    held: (key) => held.get(key),
    hold(h) {
      held.set(h.key, h);
    },
    release(key) {
      held.delete(key);
    },
    heldRooms: () => [...held.values()],
    load: async (roomId) => rooms.get(roomId),
    async claim(roomId, previousSocketId, socketId) {
      const room = rooms.get(roomId);
      const i = room?.members.indexOf(previousSocketId) ?? -1;
      if (!room || i < 0) return false;
      room.members[i] = socketId;
      return true;
    },
    async takeHolding(roomId, from, to) {
      const room = rooms.get(roomId);
      if (room?.holder === from) room.holder = to;
      return room?.holder;
    },
  };
}
