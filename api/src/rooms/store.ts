import type { RoomKind } from '@parley/contract/rooms';

/** A room: its kind and the sockets of its members. */
export type Room = { roomId: string; kind: RoomKind; members: string[] };

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
  };
}
