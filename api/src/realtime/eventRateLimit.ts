import { MESSAGE_BURST, MESSAGE_RATE_PER_S } from '@parley/contract/matchmaking';

/**
 * A token bucket: `rate` tokens a second, at most `burst` held; time in milliseconds
 * (performance.now()). Kept as one number, the time it is full again (the generic cell rate
 * algorithm's form of the same bucket): tokens at `now` are `burst - (full - now) × rate`. Servers
 * hold several per connection, so one number instead of a level and a time matters.
 */
export class TokenBucket {
  private full: number;
  constructor(
    readonly rate: number,
    readonly burst: number,
    now: number,
  ) {
    this.full = now;
  }

  /** Spends `n` tokens when they are there; a refused take spends nothing. */
  take(now: number, n = 1): boolean {
    const next = taken(this.full, now, n, this.rate, this.burst);
    if (next < 0) return false;
    this.full = next;
    return true;
  }

  /** Spends `n` tokens even when it goes below zero (a debt paid back over time); answers whether it stayed in budget. */
  spend(now: number, n: number): boolean {
    this.full = Math.max(this.full, now) + (n * 1000) / this.rate;
    return (this.full - now) * this.rate <= this.burst * 1000;
  }

  /** Whether the bucket would be full at `now`: it then remembers nothing worth keeping. */
  fullAt(now: number): boolean {
    return this.full <= now;
  }
}

/** A bucket full again at `full` after `n` tokens are taken at `now`, or -1 when it holds fewer than `n`. */
function taken(full: number, now: number, n: number, rate: number, burst: number): number {
  const from = Math.max(full, now);
  return (from - now) * rate > (burst - n) * 1000 ? -1 : from + (n * 1000) / rate;
}

/**
 * Token bucket per user (all tabs share it): MESSAGE_RATE_PER_S steady, MESSAGE_BURST at once.
 * Synchronous and in-process because it sits on the message hot path; with several API
 * processes each enforces it for the sockets it holds.
 */
export function messageRateLimit(rate = MESSAGE_RATE_PER_S, burst = MESSAGE_BURST, now = () => performance.now()) {
  /** Key → when its bucket is full again (see TokenBucket): one number per person, not an object. */
  const buckets = new Map<string, number>();
  const sweep = setInterval(() => {
    const t = now();
    // A bucket idle long enough to be full again carries no information.
    for (const [k, full] of buckets) if (full <= t) buckets.delete(k);
  }, 60_000);
  sweep.unref();
  return {
    take(key: string): boolean {
      const t = now();
      const next = taken(buckets.get(key) ?? t, t, 1, rate, burst);
      if (next < 0) return false;
      buckets.set(key, next);
      return true;
    },
    close() {
      clearInterval(sweep);
    },
  };
}

/**
 * Frames (socket.io events of any kind) one socket may send a second, and at once. Above what the
 * app sends at its busiest (a burst of signalling when a call starts, a chat's outbox replayed
 * after a reconnect, a page pasting messages faster than the message allowance, each with its
 * typing frame, until the allowance refuses them), far below a flood: each frame costs a decode
 * and a handler, whatever it is.
 */
export const SOCKET_FRAMES_PER_S = 50;
export const SOCKET_FRAMES_BURST = 600;
/** Frames all of one user's sockets in a process may send together (MAX_SOCKETS_PER_USER tabs could otherwise multiply a socket's). */
export const USER_FRAMES_PER_S = 100;
export const USER_FRAMES_BURST = 1200;

/**
 * The per-user half of the frame budget: one bucket per user, shared by their sockets in this
 * process. A socket holds its user's bucket, so a frame costs no look-up; a bucket is kept after
 * its user's last socket closes until it is full again, so reconnecting does not refill it.
 */
export function userFrameBudgets(rate = USER_FRAMES_PER_S, burst = USER_FRAMES_BURST, now = () => performance.now()) {
  const buckets = new Map<string, { bucket: TokenBucket; sockets: number }>();
  const sweep = setInterval(() => {
    const t = now();
    for (const [k, b] of buckets) if (b.sockets === 0 && b.bucket.fullAt(t)) buckets.delete(k);
  }, 60_000);
  sweep.unref();
  return {
    /** The user's bucket, held by one more socket until `release`. */
    hold(userId: string): TokenBucket {
      let b = buckets.get(userId);
      if (!b) buckets.set(userId, (b = { bucket: new TokenBucket(rate, burst, now()), sockets: 0 }));
      b.sockets++;
      return b.bucket;
    },
    release(userId: string) {
      const b = buckets.get(userId);
      if (b) b.sockets = Math.max(0, b.sockets - 1);
    },
    size: () => buckets.size,
    close() {
      clearInterval(sweep);
    },
  };
}
