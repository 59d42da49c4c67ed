import { MESSAGE_BURST, MESSAGE_RATE_PER_S } from '@parley/contract/chat';

/**
 * Token bucket per user (all tabs share it): MESSAGE_RATE_PER_S steady, MESSAGE_BURST at once.
 * Synchronous and in-process because it sits on the message hot path; with several API
 * processes each enforces it for the sockets it holds.
 */
export function messageRateLimit(rate = MESSAGE_RATE_PER_S, burst = MESSAGE_BURST, now = () => performance.now()) {
  const buckets = new Map<string, { tokens: number; at: number }>();
  const sweep = setInterval(() => {
    const t = now();
    // A bucket idle long enough to be full again carries no information.
    for (const [k, b] of buckets) if (t - b.at > (burst / rate) * 1000) buckets.delete(k);
  }, 60_000);
  sweep.unref();
  return {
    take(key: string): boolean {
      const t = now();
      const b = buckets.get(key);
      if (!b) {
        buckets.set(key, { tokens: burst - 1, at: t });
        return true;
      }
      b.tokens = Math.min(burst, b.tokens + ((t - b.at) / 1000) * rate);
      b.at = t;
      if (b.tokens < 1) return false;
      b.tokens -= 1;
      return true;
    },
    close() {
      clearInterval(sweep);
    },
  };
}
