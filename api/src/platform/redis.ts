import type * as IORedis from 'ioredis';
import type { Redis } from 'ioredis';
import { lazyRequire } from './lazyRequire.ts';

export type { Redis };

/** One Redis connection for commands; pub/sub users duplicate() it. */
export function createRedis(url: string): Redis {
  // Loaded with the first connection: a process without REDIS_URL never carries the client.
  const { Redis } = lazyRequire('ioredis') as typeof IORedis;
  return new Redis(url, { maxRetriesPerRequest: 3, enableReadyCheck: true, lazyConnect: false });
}

/**
 * Closes a connection once the commands already sent have their replies (QUIT), so none of them
 * is left to fail as "Connection is closed"; gives up waiting after `ms` (Redis unreachable).
 */
export async function closeRedis(redis: Redis, ms = 2000): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([redis.quit().catch(() => undefined), new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
  redis.disconnect();
}

/**
 * The connection as a publisher that goes quiet once `closed()` says so: socket.io's Redis adapter
 * catches no failed publish, and an emit still on its way when the process closes (a timer's, a
 * socket's last event) would otherwise publish on a connection being shut, a rejection nobody
 * catches. Everything but `publish` is the connection's own.
 */
export function publisherUntil(redis: Redis, closed: () => boolean): Redis {
  const publish = (...args: Parameters<Redis['publish']>) => (closed() ? Promise.resolve(0) : redis.publish(...args));
  return new Proxy(redis, {
    get(target, prop) {
      if (prop === 'publish') return publish;
      // Every other method runs on the connection itself (the adapter's are rare: server counts).
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}
