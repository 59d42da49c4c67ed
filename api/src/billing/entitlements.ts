import {
  BILLING_CYCLES,
  PAYMENT_GRACE_DAYS,
  PREMIUM_TIERS,
  type BillingCycle,
  type PremiumTier,
  type Tier,
} from '@parley/contract/billing';
import { DEFAULT_PREMIUM_TIER } from '@parley/contract/constants';

/** A subscription as stored: what Stripe last said about it, plus our grace period. */
export type SubscriptionState = {
  tier: PremiumTier;
  billingCycle: BillingCycle;
  status: string;
  cancelledAt: Date | null;
  periodEnd: Date | null;
  graceUntil: Date | null;
};

const DAY_MS = 24 * 60 * 60 * 1000;
const RANK: Record<Tier, number> = { 'free tier': 0, plus: 1, pro: 2 };

/** Statuses whose perks hold: paid (or trialing), or a failed renewal still within its grace. */
export function entitles(sub: SubscriptionState, now: Date): boolean {
  if (sub.status === 'active' || sub.status === 'trialing') return true;
  if (sub.status === 'past_due') return sub.graceUntil !== null && sub.graceUntil > now;
  return false;
}

/**
 * The grace period to store after Stripe reports `status`: it starts at the first failed renewal
 * seen and is kept while the subscription stays past due; a paid subscription has none.
 */
export function graceAfter(status: string, current: Date | null, now: Date): Date | null {
  if (status !== 'past_due') return null;
  return current ?? new Date(now.getTime() + PAYMENT_GRACE_DAYS * DAY_MS);
}

/** The subscription that decides a user's tier: the highest one that entitles; none → free tier. */
export function governing(subs: SubscriptionState[], now: Date): SubscriptionState | undefined {
  let best: SubscriptionState | undefined;
  for (const sub of subs) if (entitles(sub, now) && (!best || RANK[sub.tier] > RANK[best.tier])) best = sub;
  return best;
}

export const tierFrom = (sub: SubscriptionState | undefined): Tier => sub?.tier ?? DEFAULT_PREMIUM_TIER;

/** Reads a price's lookup key (`parley_<tier>_<cycle>`); anything else is not one of our plans. */
export function planOfLookupKey(key: string | null | undefined): { tier: PremiumTier; cycle: BillingCycle } | undefined {
  const m = /^parley_([a-z]+)_([a-z]+)$/.exec(key ?? '');
  if (!m) return undefined;
  const [, tier, cycle] = m;
  if (!(PREMIUM_TIERS as readonly string[]).includes(tier!) || !(BILLING_CYCLES as readonly string[]).includes(cycle!)) return undefined;
  return { tier: tier as PremiumTier, cycle: cycle as BillingCycle };
}
