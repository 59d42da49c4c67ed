import { Redis } from 'ioredis';

export type { Redis };

/** One Redis connection for commands; pub/sub users duplicate() it. */
export function createRedis(url: string): Redis {
  return new Redis(url, { maxRetriesPerRequest: 3, enableReadyCheck: true, lazyConnect: false });
}
