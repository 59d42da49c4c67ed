import { chatEvents } from '@parley/contract/chat';
import type { AppIo, AppSocket } from '../realtime/server.ts';
import type { Redis } from '../platform/redis.ts';

/**
 * Who is in which video room right now, as the chat server announced it: recorded from the
 * `chat:matched` {roomType: 'videoChat'} a socket is sent (or, for a room its page took back after
 * a dropped connection, from the chat's resume: `seat`), forgotten when that socket is told its
 * partner left, asks for a new search / stop / next, or disconnects. The peer-ticket route asks
 * it, so a ticket (and the partner's peer id) goes only to the two users the matchmaker paired.
 * Each process records what its own sockets are told; with REDIS_URL the seats live in Redis,
 * so a ticket request may reach any API process.
 */
export type VideoRoomPairing = {
  partnerOf(roomId: string, userId: string): Promise<string | null>;
  attach(io: AppIo): void;
  /** Seats a socket in a room it was not sent `chat:matched` for: a page took its held room back on a new socket. */
  seat(roomId: string, socketId: string, seat: Seat): void;
};

export type Seat = { userId: string; partnerId: string };

const matchedShape = (p: unknown): { roomId: string; roomType: string; partnerId: string } | null => {
  if (typeof p !== 'object' || p === null) return null;
  const { roomId, roomType, receiver } = p as { roomId?: unknown; roomType?: unknown; receiver?: { userId?: unknown } };
  if (typeof roomId !== 'string' || typeof roomType !== 'string' || typeof receiver?.userId !== 'string') return null;
  return { roomId, roomType, partnerId: receiver.userId };
};

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
  const leavingEvents = new Set<string>([chatEvents.start, chatEvents.stop, chatEvents.next]);
  // One socket's updates apply in order even though the store is asynchronous.
  const queues = new Map<string, Promise<void>>();
  const update = (socketId: string, step: () => Promise<void>) => {
    const next = (queues.get(socketId) ?? Promise.resolve()).then(step).catch(onError);
    queues.set(socketId, next);
    void next.finally(() => {
      if (queues.get(socketId) === next) queues.delete(socketId);
    });
  };

  return {
    async partnerOf(roomId, userId) {
      // Seat updates this process has under way (a stop, a partner leaving) land before the look-up.
      await Promise.all(queues.values());
      const lookup = async () => (await store.seats(roomId)).find((s) => s.userId === userId)?.partnerId ?? null;
      // The seat is written as the room setup goes out; a ticket request may overtake that write.
      return (await lookup()) ?? (await new Promise((r) => setTimeout(r, 150)).then(lookup));
    },
    seat(roomId, socketId, seat) {
      update(socketId, () => store.put(roomId, socketId, seat));
    },
    attach(io) {
      io.on('connection', (socket: AppSocket) => {
        const forget = () => update(socket.id, () => store.remove(socket.id));
        socket.onAnyOutgoing((event: string, payload: unknown) => {
          if (event === chatEvents.matched) {
            const m = matchedShape(payload);
            if (m?.roomType === 'videoChat') {
              const seat = { userId: socket.data.user.userId, partnerId: m.partnerId };
              update(socket.id, () => store.put(m.roomId, socket.id, seat));
            } else forget();
          } else if (event === chatEvents.partnerLeft) {
            forget();
          }
        });
        // Start, stop and next all leave the current room (listeners of onAny run before the chat's own).
        socket.onAny((event: string) => {
          if (leavingEvents.has(event)) forget();
        });
        socket.on('disconnect', forget);
      });
    },
  };
}
