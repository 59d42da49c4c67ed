import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import type { LiveSdp } from '@parley/contract/live';
import { closeRedis, createRedis } from '../platform/redis.ts';
import { DIRECTORY_STALE_MS, memoryStreamDirectory, redisStreamDirectory, type StreamDirectory } from './directory.ts';
import { LiveStreams } from './streams.ts';

const forwarder = () => ({
  publish: async (): Promise<LiveSdp> => ({ type: 'answer', sdp: 'v=0' }),
  addViewer: async (): Promise<LiveSdp> => ({ type: 'offer', sdp: 'v=0' }),
  answerViewer: async () => undefined,
  removeViewer: () => undefined,
  close: async () => undefined,
});
const outbox = { viewers: () => undefined, ended: () => undefined, dropped: () => undefined };
const offer: LiveSdp = { type: 'offer', sdp: 'v=0' };

/** Two API processes' streams sharing one directory. */
function twoProcesses(directory: () => StreamDirectory) {
  const a = new LiveStreams({ forwarder, outbox, directory: directory(), node: 'a' });
  const b = new LiveStreams({ forwarder, outbox, directory: directory(), node: 'b' });
  return { a, b, close: () => Promise.all([a.close(), b.close()]) };
}

const redisUrl = process.env.REDIS_URL;
const redis = redisUrl ? createRedis(redisUrl) : undefined;
afterAll(async () => {
  if (redis) await closeRedis(redis);
});

const shared = memoryStreamDirectory();
const kinds: Array<[string, () => StreamDirectory]> = [['one memory directory', () => shared]];
if (redis) {
  const prefix = `test${randomUUID().slice(0, 8)}:`;
  kinds.push(['Redis', () => redisStreamDirectory(redis, prefix)]);
}

describe.each(kinds)('the stream directory (%s)', (_name, directory) => {
  it('lists a stream started in one process from another, with its viewers, its picture, and its end', async () => {
    const { a, b, close } = twoProcesses(directory);
    const owner = { userId: randomUUID(), username: 'dirk', avatar: '' };
    const s = a.goLive(owner, { title: 'Across processes', category: 'Music' });
    expect((await b.listAll()).map((x) => x.roomId)).not.toContain(s.roomId);
    // Not listed before its media arrives, but its holder is known (a publish may reach another process).
    await expect.poll(async () => (await directory().get(s.roomId))?.node).toBe('a');
    expect(await directory().get(s.roomId)).toMatchObject({ pending: true });
    expect(await b.find(s.roomId)).not.toHaveProperty('pending');
    await a.publish(owner.userId, s.roomId, offer);
    await expect.poll(async () => (await b.listAll({ q: 'across' })).map((x) => x.roomId)).toContain(s.roomId);
    await a.watch(randomUUID(), 'sock-1', s.roomId);
    await a.watch(randomUUID(), 'sock-2', s.roomId);
    // Viewer counts are written within a second.
    await expect.poll(async () => (await b.find(s.roomId)).viewers, { timeout: 3000 }).toBe(2);
    expect(await b.findThumbnail(s.roomId)).toBeUndefined();
    a.setThumbnail(owner.userId, s.roomId, Buffer.from('jpeg'));
    await expect.poll(async () => (await b.findThumbnail(s.roomId))?.toString()).toBe('jpeg');
    await a.end(owner.userId, s.roomId);
    await expect.poll(async () => (await b.listAll()).map((x) => x.roomId)).not.toContain(s.roomId);
    expect((await b.find(s.roomId)).endedAt).toBeGreaterThan(0);
    await expect(b.find(randomUUID())).rejects.toMatchObject({ code: 'stream_not_found' });
    await close();
  });
});

describe('a stream whose process died', () => {
  it('leaves the list once its entry was not refreshed for DIRECTORY_STALE_MS', async () => {
    let t = 1_000_000;
    const dir = memoryStreamDirectory(() => t);
    const entry = {
      roomId: 'r1',
      title: 'Ghost',
      category: 'Music' as const,
      broadcaster: { userId: 'u', username: 'g', avatar: '' },
      viewers: 3,
      startedAt: t,
      hasThumbnail: false,
      node: 'gone',
    };
    await dir.put(entry);
    expect((await dir.list()).map((e) => e.roomId)).toEqual(['r1']);
    t += DIRECTORY_STALE_MS + 1;
    expect(await dir.list()).toEqual([]);
    expect(await dir.get('r1')).toBeNull();
  });
});
