import { describe, expect, it } from 'vitest';
import { closeRedis, createRedis, publisherUntil, type Redis } from './redis.ts';

describe('publisherUntil', () => {
  it('publishes until closed, then publishes nothing and fails nothing; everything else is the connection itself', async () => {
    const sent: string[] = [];
    const fake = {
      status: 'ready',
      publish: async (channel: string, message: string) => (sent.push(`${channel}:${message}`), 1),
      ping(this: { status: string }) {
        return this.status;
      },
    } as unknown as Redis;
    let closed = false;
    const pub = publisherUntil(fake, () => closed);
    expect(await pub.publish('a', 'one')).toBe(1);
    // Called through the wrapper, a method still sees the connection as `this`.
    expect(await (pub as unknown as { ping(): string }).ping()).toBe('ready');
    expect(pub.status).toBe('ready');
    closed = true;
    expect(await pub.publish('a', 'two')).toBe(0);
    expect(sent).toEqual(['a:one']);
  });

  it.runIf(process.env.REDIS_URL)('on a real connection being shut: a publish after close is no rejection', async () => {
    const redis = createRedis(process.env.REDIS_URL!);
    let closed = false;
    const pub = publisherUntil(redis, () => closed);
    expect(await pub.publish('parley-test-channel', 'x')).toBeTypeOf('number');
    closed = true;
    await closeRedis(redis);
    await expect(pub.publish('parley-test-channel', 'y')).resolves.toBe(0);
    // Unwrapped, the same publish fails: the guard is what keeps it quiet.
    await expect(redis.publish('parley-test-channel', 'z')).rejects.toThrow();
  });
});
