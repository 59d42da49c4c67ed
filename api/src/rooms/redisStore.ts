import { RESUME_GRACE_MS } from '@parley/contract/matchmaking';
import type { Redis } from '../platform/redis.ts';
import { memoryRooms, type Room, type RoomStore, type Seat } from './store.ts';

/**
 * Rooms shared by every API process (REDIS_URL). The relay reads a sender's room for every
 * message, so each process keeps the rooms of its own sockets in memory and writes them through:
 * a hash per room (`kind`, and one field per member socket: its seat), whose fields each process
 * writes for its own members only, so the two sides of a room opened in two processes merge. A
 * held room is written through too (it expires with the grace), so any process can see it.
 * Records expire after a day, as a backstop for processes that died without cleaning up.
 */
export function redisRooms(redis: Redis, prefix: string, home: string, onError: (err: unknown) => void): RoomStore {
  const local = memoryRooms();
  const TTL_S = 24 * 60 * 60;
  const roomKey = (roomId: string) => `${prefix}room:${roomId}`;
  const heldKey = (key: string) => `${prefix}held:${key}`;
  const write = (p: Promise<unknown>) => void p.catch(onError);

  return {
    room: local.room,
    put(room) {
      local.put(room);
      const multi = redis.multi().hset(roomKey(room.roomId), 'kind', room.kind);
      // Set once, at the match; only takeHolding() changes it (a copy read earlier must not undo a takeover).
      if (room.holder) multi.hsetnx(roomKey(room.roomId), 'holder', room.holder);
      room.members.forEach((id, i) => {
        const seat = room.seats?.[i];
        if (seat?.home === home) multi.hset(roomKey(room.roomId), `m:${id}`, JSON.stringify(seat));
      });
      write(multi.expire(roomKey(room.roomId), TTL_S).exec());
    },
    remove(roomId) {
      local.remove(roomId);
      write(redis.del(roomKey(roomId)));
    },
    held: local.held,
    hold(h) {
      local.hold(h);
      write(redis.set(heldKey(h.key), JSON.stringify(h), 'PX', RESUME_GRACE_MS + 5000));
    },
    release(key) {
      local.release(key);
      write(redis.del(heldKey(key)));
    },
    heldRooms: local.heldRooms,
    async load(roomId) {
      const all = await redis.hgetall(roomKey(roomId));
      if (!all.kind) return undefined;
      const members: string[] = [];
      const seats: Seat[] = [];
      for (const [field, value] of Object.entries(all)) {
        if (!field.startsWith('m:')) continue;
        members.push(field.slice(2));
        seats.push(JSON.parse(value) as Seat);
      }
      return { roomId, kind: all.kind as Room['kind'], members, seats, ...(all.holder && { holder: all.holder }) };
    },
    async claim(roomId, previousSocketId, socketId, seat) {
      const moved = await redis.eval(CLAIM, 1, roomKey(roomId), `m:${previousSocketId}`, `m:${socketId}`, JSON.stringify(seat));
      return moved === 1;
    },
    async takeHolding(roomId, from, to) {
      const holder = (await redis.eval(TAKE_HOLDING, 1, roomKey(roomId), from, to)) as string | null;
      return holder ?? undefined;
    },
  };
}

const CLAIM = `
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then return 0 end
redis.call('HDEL', KEYS[1], ARGV[1])
redis.call('HSET', KEYS[1], ARGV[2], ARGV[3])
return 1
`;

const TAKE_HOLDING = `
if redis.call('EXISTS', KEYS[1]) == 0 then return false end
if redis.call('HGET', KEYS[1], 'holder') == ARGV[1] then redis.call('HSET', KEYS[1], 'holder', ARGV[2]) end
return redis.call('HGET', KEYS[1], 'holder')
`;
