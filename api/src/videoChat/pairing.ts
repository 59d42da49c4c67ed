import type { RoomEventSource, RoomMember } from '../deps.ts';
import type { Redis } from '../platform/redis.ts';

/**
 * Who is in which video room right now, as the rooms announce it (`follow`): seated when a video
 * room opens or a page takes its held room back on a new socket, forgotten when the socket leaves
 * the room (or the room ends) or its connection drops. The peer-ticket route asks it, so a ticket
 * (and the partner's peer id) goes only to the two users the matchmaker paired. Each process
 * records its own sockets' rooms; with REDIS_URL the seats live in Redis, so a ticket request may
 * reach any API process.
 */
export type VideoRoomPairing = {
  partnerOf(roomId: string, userId: string): Promise<string | null>;
  follow(rooms: RoomEventSource): void;
};

export type Seat = { userId: string; partnerId: string };

/** Where the seats are kept: this process's memory, or Redis shared by every API process. */
export type SeatStore = {
  put(roomId: string, socketId: string, seat: Seat): Promise<void>;
  remove(socketId: string): Promise<void>;
  seats(roomId: string): Promise<Seat[]>;
};

export function memorySeats(): SeatStore {
  const rooms = new Map<string, Map<string, Seat>>();
  const roomOfSocket = new Map<string, string>();
  const remove = async (socketId: string) => {
    const roomId = roomOfSocket.get(socketId);
    if (roomId === undefined) return;
    roomOfSocket.delete(socketId);
    const seats = rooms.get(roomId);
    seats?.delete(socketId);
    if (seats?.size === 0) rooms.delete(roomId);
  };
  return {
    async put(roomId, socketId, seat) {
      await remove(socketId);
      let seats = rooms.get(roomId);
      if (!seats) rooms.set(roomId, (seats = new Map()));
      seats.set(socketId, seat);
      roomOfSocket.set(socketId, roomId);
    },
    remove,
    async seats(roomId) {
      return [...(rooms.get(roomId)?.values() ?? [])];
    },
  };
}

/** Seats in Redis: a hash per room (socket id -> seat) and the room of each socket; both expire after a day. */
export function redisSeats(redis: Redis, prefix: string): SeatStore {
  const TTL_S = 24 * 60 * 60;
  const roomKey = (roomId: string) => `${prefix}rtc:room:${roomId}`;
  const socketKey = (socketId: string) => `${prefix}rtc:socket:${socketId}`;
  const remove = async (socketId: string) => {
    const roomId = await redis.get(socketKey(socketId));
    if (roomId === null) return;
    await redis.multi().del(socketKey(socketId)).hdel(roomKey(roomId), socketId).exec();
  };
  return {
    async put(roomId, socketId, seat) {
      await remove(socketId);
      await redis
        .multi()
        .hset(roomKey(roomId), socketId, JSON.stringify(seat))
        .expire(roomKey(roomId), TTL_S)
        .set(socketKey(socketId), roomId, 'EX', TTL_S)
        .exec();
    },
    remove,
    async seats(roomId) {
      const all = await redis.hgetall(roomKey(roomId));
      return Object.values(all).map((v) => JSON.parse(v) as Seat);
    },
  };
}

export function createVideoRoomPairing(
  store: SeatStore = memorySeats(),
  onError: (err: unknown) => void = () => undefined,
): VideoRoomPairing {
  // One socket's updates apply in order even though the store is asynchronous.
  const queues = new Map<string, Promise<void>>();
  const update = (socketId: string, step: () => Promise<void>) => {
    const next = (queues.get(socketId) ?? Promise.resolve()).then(step).catch(onError);
    queues.set(socketId, next);
    void next.finally(() => {
      if (queues.get(socketId) === next) queues.delete(socketId);
    });
  };
  const seat = (roomId: string, member: RoomMember, members: RoomMember[]) => {
    const partner = members.find((m) => m.socketId !== member.socketId);
    if (partner) update(member.socketId, () => store.put(roomId, member.socketId, { userId: member.userId, partnerId: partner.userId }));
  };
  const forget = (socketId: string) => update(socketId, () => store.remove(socketId));

  return {
    async partnerOf(roomId, userId) {
      // Seat updates this process has under way (a stop, a partner leaving) land before the look-up.
      await Promise.all(queues.values());
      const lookup = async () => (await store.seats(roomId)).find((s) => s.userId === userId)?.partnerId ?? null;
      // The seat is written as the room setup goes out; a ticket request may overtake that write.
      return (await lookup()) ?? (await new Promise((r) => setTimeout(r, 150)).then(lookup));
    },
    follow(rooms) {
      rooms.on('matched', (e) => {
        if (e.kind === 'videoChat') for (const m of e.members) seat(e.roomId, m, e.members);
      });
      rooms.on('resumed', (e) => {
        if (e.kind === 'videoChat') seat(e.roomId, e.member, e.members);
      });
      rooms.on('left', (e) => forget(e.member.socketId));
      rooms.on('held', (e) => forget(e.member.socketId));
    },
  };
}
