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
