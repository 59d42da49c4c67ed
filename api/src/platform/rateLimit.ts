import { DomainError } from './errors.ts';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { Redis } from './redis.ts';
import { addressKey } from './address.ts';
import { rateLimited } from './metrics.ts';

export type RateLimitSpec = {
  keyPrefix: string;
  points: number;
  durationSeconds: number;
  /** In process only: the most keys held at once (Redis expires its own). */
  maxKeys?: number;
  /** Keys are client addresses: each is counted under addressKey (an IPv6 address by its /64). */
  byAddress?: boolean;
};

/** What taking points answered: `before` is what the window had used before this call. */
export type Take = { ok: true; before: number } | { ok: false; before: number; retryAfterS: number };

/** A fixed-window counter per key. */
export type Limiter = {
  /** Spends `points` when the window has room for them; a refused take spends nothing. */
  take(key: string, points?: number): Promise<Take>;
  /** Points used in the current window, spending none. */
  used(key: string): Promise<number>;
  /** Gives points back (a success that should not count against its caller). */
  refund(key: string, points?: number): Promise<void>;
  reset(key: string): Promise<void>;
};

/** Rate limiters live in Redis when the server runs scaled out, in process otherwise. */
export type RateLimiters = { create(spec: RateLimitSpec): Limiter };

/**
 * Keys held by one in-process limiter at most. A stranger can mint keys (addresses, usernames):
 * past this the oldest windows are dropped, so memory stays bounded (about 150 B a key).
 */
export const DEFAULT_MAX_KEYS = 50_000;

export function rateLimiters(redis: Redis | undefined, prefix = 'parley:'): RateLimiters {
  return {
    create(spec) {
      const limiter = counted(spec.keyPrefix, redis ? redisLimiter(redis, `${prefix}rl:${spec.keyPrefix}`, spec) : memoryLimiter(spec));
      return spec.byAddress ? keyedByAddress(limiter) : limiter;
    },
  };
}

/** A limiter whose refusals are counted in the metrics under its name. */
function counted(name: string, limiter: Limiter): Limiter {
  return {
    ...limiter,
    take: async (key, points) => {
      const r = await limiter.take(key, points);
      if (!r.ok) rateLimited(name);
      return r;
    },
  };
}

/** A limiter whose keys are addresses, each counted under its addressKey. */
function keyedByAddress(limiter: Limiter): Limiter {
  return {
    take: (address, points) => limiter.take(addressKey(address), points),
    used: (address) => limiter.used(addressKey(address)),
    refund: (address, points) => limiter.refund(addressKey(address), points),
    reset: (address) => limiter.reset(addressKey(address)),
  };
}

type Window = { used: number; resetAt: number };

export function memoryLimiter({ points: limit, durationSeconds, maxKeys = DEFAULT_MAX_KEYS }: RateLimitSpec, now = () => Date.now()) {
  // Insertion order is window-start order (a key whose window ended is inserted again), so the
  // expired and the oldest windows are always at the front.
  const windows = new Map<string, Window>();
  const current = (key: string, t: number): Window | undefined => {
    const w = windows.get(key);
    if (w && w.resetAt <= t) {
      windows.delete(key);
      return undefined;
    }
    return w;
  };
  const open = (key: string, t: number): Window => {
    for (const [k, w] of windows) {
      if (w.resetAt > t && windows.size < maxKeys) break;
      windows.delete(k);
    }
    const w = { used: 0, resetAt: t + durationSeconds * 1000 };
    windows.set(key, w);
    return w;
  };
  const limiter: Limiter & { size(): number } = {
    async take(key, points = 1) {
      const t = now();
      const w = current(key, t) ?? open(key, t);
      const before = w.used;
      if (before + points > limit) return { ok: false, before, retryAfterS: Math.max(1, Math.ceil((w.resetAt - t) / 1000)) };
      w.used += points;
      return { ok: true, before };
    },
    async used(key) {
      return current(key, now())?.used ?? 0;
    },
    async refund(key, points = 1) {
      const w = current(key, now());
      if (w) w.used = Math.max(0, w.used - points);
    },
    async reset(key) {
      windows.delete(key);
    },
    size: () => windows.size,
  };
  return limiter;
}

function redisLimiter(redis: Redis, keyPrefix: string, { points, durationSeconds }: RateLimitSpec): Limiter {
  const rl = new RateLimiterRedis({ storeClient: redis, keyPrefix, points, duration: durationSeconds });
  return {
    async take(key, n = 1) {
      try {
        const res = await rl.consume(key, n);
        return { ok: true, before: res.consumedPoints - n };
      } catch (e) {
        if (!(e instanceof RateLimiterRes)) throw e;
        // Redis counted the refused points too; give them back, as a refused take spends nothing.
        await rl.reward(key, n);
        return { ok: false, before: e.consumedPoints - n, retryAfterS: Math.max(1, Math.ceil(e.msBeforeNext / 1000)) };
      }
    },
    async used(key) {
      return (await rl.get(key))?.consumedPoints ?? 0;
    },
    async refund(key, n = 1) {
      await rl.reward(key, n);
    },
    async reset(key) {
      await rl.delete(key);
    },
  };
}

/** Takes one point; returns the seconds to wait when the limit is reached, else 0. */
export async function consume(limiter: Limiter, key: string, points = 1): Promise<number> {
  const r = await limiter.take(key, points);
  return r.ok ? 0 : r.retryAfterS;
}

/** Takes one point or refuses with 429 and Retry-After, in the words of the area that limits. */
export async function takeOrRefuse(limiter: Limiter, key: string, message: string): Promise<void> {
  const wait = await consume(limiter, key);
  if (wait > 0) throw new DomainError('too_many', message, 'rate_limited', wait);
}
