import type { LiveStream } from '@parley/contract/live';
import type { Redis } from '../platform/redis.ts';

/** A stream as every API process sees it: its card, and the process (`node`) that holds its media. */
/** `pending`: made, its broadcaster's media not arrived yet (not listed). */
export type DirectoryEntry = LiveStream & { node: string; pending?: boolean };

/**
 * Which streams are live, on which process, with how many viewers. The process holding a stream
 * writes it (`put` as it starts and on every change); the list and a stream's page read it. Each
 * holder refreshes its entries every DIRECTORY_REFRESH_MS, so a process that died leaves no ghost
 * stream for longer than DIRECTORY_STALE_MS. Ended streams are kept a day for their page.
 */
export type StreamDirectory = {
  put(entry: DirectoryEntry): Promise<void>;
  /** The stream ended: out of the list, its ended card kept for its page. */
  end(entry: DirectoryEntry): Promise<void>;
  list(): Promise<DirectoryEntry[]>;
  get(roomId: string): Promise<DirectoryEntry | null>;
  putThumbnail(roomId: string, jpeg: Buffer): Promise<void>;
  thumbnail(roomId: string): Promise<Buffer | null>;
};

export const DIRECTORY_REFRESH_MS = 20_000;
export const DIRECTORY_STALE_MS = 60_000;
const ENDED_KEPT_S = 24 * 60 * 60;
const THUMBNAIL_KEPT_S = 120;

type Stamped = DirectoryEntry & { seenAt: number };
const fresh = (e: Stamped, now: number) => e.endedAt !== undefined || now - e.seenAt < DIRECTORY_STALE_MS;
const unstamp = ({ seenAt: _seenAt, ...e }: Stamped): DirectoryEntry => e;

/** One process: the directory is its own memory (the default without REDIS_URL). */
export function memoryStreamDirectory(now: () => number = Date.now): StreamDirectory {
  const entries = new Map<string, Stamped>();
  const thumbs = new Map<string, Buffer>();
  return {
    async put(entry) {
      entries.set(entry.roomId, { ...entry, seenAt: now() });
    },
    async end(entry) {
      entries.set(entry.roomId, { ...entry, seenAt: now() });
      thumbs.delete(entry.roomId);
    },
    async list() {
      const t = now();
      return [...entries.values()].filter((e) => e.endedAt === undefined && fresh(e, t)).map(unstamp);
    },
    async get(roomId) {
      const e = entries.get(roomId);
      return e && fresh(e, now()) ? unstamp(e) : null;
    },
    async putThumbnail(roomId, jpeg) {
      thumbs.set(roomId, jpeg);
    },
    async thumbnail(roomId) {
      return thumbs.get(roomId) ?? null;
    },
  };
}

/**
 * Every process: live streams in one Redis hash (room id → entry), ended ones as keys that expire
 * after a day, thumbnails as keys that expire unless refreshed.
 */
export function redisStreamDirectory(redis: Redis, prefix: string, now: () => number = Date.now): StreamDirectory {
  const liveKey = `${prefix}live:streams`;
  const endedKey = (roomId: string) => `${prefix}live:ended:${roomId}`;
  const thumbKey = (roomId: string) => `${prefix}live:thumb:${roomId}`;
  const parse = (v: string | null) => (v === null ? null : (JSON.parse(v) as Stamped));
  return {
    async put(entry) {
      await redis.hset(liveKey, entry.roomId, JSON.stringify({ ...entry, seenAt: now() }));
    },
    async end(entry) {
      await redis
        .multi()
        .hdel(liveKey, entry.roomId)
        .set(endedKey(entry.roomId), JSON.stringify({ ...entry, seenAt: now() }), 'EX', ENDED_KEPT_S)
        .del(thumbKey(entry.roomId))
        .exec();
    },
    async list() {
      const t = now();
      const all = Object.values(await redis.hgetall(liveKey)).map((v) => JSON.parse(v) as Stamped);
      const stale = all.filter((e) => !fresh(e, t)).map((e) => e.roomId);
      // A process that died cannot remove its streams: the first reader after they went stale does.
      if (stale.length > 0) await redis.hdel(liveKey, ...stale);
      return all.filter((e) => fresh(e, t)).map(unstamp);
    },
    async get(roomId) {
      const e = parse(await redis.hget(liveKey, roomId)) ?? parse(await redis.get(endedKey(roomId)));
      return e && fresh(e, now()) ? unstamp(e) : null;
    },
    async putThumbnail(roomId, jpeg) {
      await redis.set(thumbKey(roomId), jpeg, 'EX', THUMBNAIL_KEPT_S);
    },
    async thumbnail(roomId) {
      return redis.getBuffer(thumbKey(roomId));
    },
  };
}
