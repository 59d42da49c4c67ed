import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Redis } from './redis.ts';

export type RateLimitSpec = { keyPrefix: string; points: number; durationSeconds: number };

/** Rate limiters live in Redis when the server runs scaled out, in process otherwise. */
export type RateLimiters = { create(spec: RateLimitSpec): RateLimiterAbstract };

export function rateLimiters(redis: Redis | undefined, prefix = 'parley:'): RateLimiters {
  return {
    create({ keyPrefix, points, durationSeconds }) {
      const opts = { keyPrefix: `${prefix}rl:${keyPrefix}`, points, duration: durationSeconds };
      return redis ? new RateLimiterRedis({ ...opts, storeClient: redis }) : new RateLimiterMemory(opts);
    },
  };
}

/** Consumes one point; returns the seconds to wait when the limit is reached, else 0. */
export async function consume(limiter: RateLimiterAbstract, key: string, points = 1): Promise<number> {
  try {
    await limiter.consume(key, points);
    return 0;
  } catch (e) {
    if (e instanceof RateLimiterRes) return Math.max(1, Math.ceil(e.msBeforeNext / 1000));
    throw e;
  }
}
