/** Percentiles and summaries of latency samples (milliseconds). */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i]!;
}

export type Summary = { n: number; p50: number; p90: number; p95: number; p99: number; max: number; mean: number };

export function summarize(samples: number[]): Summary {
  const s = [...samples].sort((a, b) => a - b);
  const round = (x: number) => Math.round(x * 100) / 100;
  const mean = s.length ? s.reduce((a, b) => a + b, 0) / s.length : NaN;
  return {
    n: s.length,
    p50: round(percentile(s, 50)),
    p90: round(percentile(s, 90)),
    p95: round(percentile(s, 95)),
    p99: round(percentile(s, 99)),
    max: round(s[s.length - 1] ?? NaN),
    mean: round(mean),
  };
}

/** A clock shared by the bench's processes on one machine: high-resolution wall time. */
export const sharedNow = () => performance.timeOrigin + performance.now();

/** Deterministic pseudo-random numbers, so a run's population can be reproduced from its seed. */
export function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
