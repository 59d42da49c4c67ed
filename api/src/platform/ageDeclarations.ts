import { SAFETY_ERR } from '@parley/contract/safety';
import type { Limiter, RateLimiters } from './rateLimit.ts';
import { DomainError } from './errors.ts';
import { publicNetworkOf } from './address.ts';

/** After an under-age answer, no age is taken from the same browser for this long. */
export const UNDERAGE_HOLD_S = 24 * 60 * 60;

/** Where an age is declared from: the device cookie(s) and the page's fingerprint on this network. */
export type DeclaredFrom = { address: string; devices?: readonly string[]; fingerprint?: string | undefined };

// One store per app: sign-up (auth/) and the age gate (users/) must read each other's marks, and an
// in-process limiter keeps its own memory.
const stores = new WeakMap<RateLimiters, Limiter>();

/**
 * Under-age answers remembered for a day, so that "17" then "18" from the same browser is refused.
 * Keyed by the device cookie, and by the fingerprint together with the network: a fingerprint
 * alone is shared by many identical phones, and one stranger's answer must not lock them all out.
 * In the rate-limit store (Redis when scaled out), so every process sees them and they expire by themselves.
 */
export function ageDeclarations(limiters: RateLimiters) {
  let marks = stores.get(limiters);
  if (!marks) {
    marks = limiters.create({ keyPrefix: 'age-underage', points: 1, durationSeconds: UNDERAGE_HOLD_S });
    stores.set(limiters, marks);
  }
  const store = marks;
  const keysOf = (from: DeclaredFrom) => {
    // A loopback or private address is a proxy (TRUST_PROXY unset) or a local network: everyone
    // behind it would share the mark, so there only the device cookie counts.
    const network = publicNetworkOf(from.address);
    return [
      ...(from.devices ?? []).map((d) => `device:${d}`),
      ...(from.fingerprint && network ? [`fingerprint:${from.fingerprint}:${network}`] : []),
    ];
  };
  return {
    /** An answer under MIN_AGE was given from here. */
    async underage(from: DeclaredFrom): Promise<void> {
      await Promise.all(keysOf(from).map((k) => store.take(k)));
    },
    /** Refuses any age from where an under-age answer was given within UNDERAGE_HOLD_S. */
    async refuseIfRecentlyUnderage(from: DeclaredFrom): Promise<void> {
      const used = await Promise.all(keysOf(from).map((k) => store.used(k)));
      if (used.some((n) => n > 0)) throw new DomainError('forbidden', SAFETY_ERR.recentUnderage, 'recently_underage');
    },
  };
}

/** An age in a request body that is a whole number under `min` (an answer that says "I am a minor"). */
export function declaresUnderage(body: unknown, min: number): boolean {
  const age = (body as { age?: unknown } | null)?.age;
  return typeof age === 'number' && Number.isInteger(age) && age >= 0 && age < min;
}
