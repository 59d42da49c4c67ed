import { monthlyGoldLabel, perksOf, type Tier } from '@parley/contract/billing';
import { isUuid } from '../db/accounts.ts';
import { entitles, governing, graceAfter, planOfLookupKey, tierFrom } from './entitlements.ts';
import type { BillingDeps } from './service.ts';
import type { Stripe } from './stripe.ts';

type Tx = Parameters<Parameters<BillingDeps['db']['transaction']>[0]>[0];
/** The writes of one event; returns the users whose tier to compute again, and may leave steps for after the commit. */
type Apply = (tx: Tx, after: Array<() => void>) => Promise<string[]>;
const idOf = (ref: string | { id: string } | null | undefined) => (typeof ref === 'string' ? ref : ref?.id);

/**
 * Applies one event: what Stripe says now is read first (so a late or repeated event never
 * moves a subscription back), then the event id and every write commit together, so each
 * event counts once across all API processes. Returns the users whose tier changed.
 */
export async function applyEvent(deps: BillingDeps, event: Stripe.Event): Promise<{ duplicate: boolean; changed: Map<string, Tier> }> {
  const apply = await planFor(deps, event);
  const changed = new Map<string, Tier>();
  const after: Array<() => void> = [];
  const now = new Date();
  const duplicate = await deps.db.transaction(async (tx) => {
    if (!(await deps.store.firstDelivery(tx, event.id, event.type))) return true;
    for (const userId of new Set(await apply(tx, after))) {
      const tier = tierFrom(governing(await deps.store.subscriptionsOf(userId, tx), now));
      if (await deps.store.setTier(tx, userId, tier)) changed.set(userId, tier);
    }
    return false;
  });
  if (!duplicate) for (const step of after) step();
  return { duplicate, changed };
}

async function planFor(deps: BillingDeps, event: Stripe.Event): Promise<Apply> {
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded': {
      const session = event.data.object;
      // A delayed payment method completes the session unpaid; its own success event follows.
      if (session.mode === 'payment' && session.payment_status !== 'paid') return async () => [];
      const subscription = session.mode === 'subscription' ? await current(deps, idOf(session.subscription)) : undefined;
      return async (tx) => {
        await deps.store.completeCheckout(tx, session.id, idOf(session.payment_intent) ?? null);
        return subscription ? await save(deps, tx, subscription) : [];
      };
    }
    case 'checkout.session.expired': {
      const session = event.data.object;
      return async (tx) => {
        await deps.store.expireCheckout(tx, session.id);
        return [];
      };
    }
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted': {
      const subscription = (await current(deps, event.data.object.id)) ?? event.data.object;
      return (tx) => save(deps, tx, subscription);
    }
    case 'invoice.paid': {
      const invoice = event.data.object;
      const subscription = await current(deps, idOf(invoice.parent?.subscription_details?.subscription));
      return async (tx, after) => {
        if (!subscription) return [];
        const userIds = await save(deps, tx, subscription);
        for (const userId of userIds)
          if (await grantMonthlyGold(deps, tx, userId, invoice.id, subscription.id)) after.push(() => deps.gold?.announce(userId));
        return userIds;
      };
    }
    case 'invoice.payment_failed': {
      const subscription = await current(deps, idOf(event.data.object.parent?.subscription_details?.subscription));
      return async (tx) => (subscription ? save(deps, tx, subscription) : []);
    }
    case 'charge.refunded': {
      const paymentIntent = idOf(event.data.object.payment_intent);
      return async (tx) => {
        if (paymentIntent) await deps.store.refundDonation(tx, paymentIntent);
        return [];
      };
    }
    default:
      // Recorded and otherwise ignored: the endpoint may be subscribed to more than it needs.
      return async () => [];
  }
}

/** The subscription as Stripe holds it now; undefined when Stripe no longer knows it. */
async function current(deps: BillingDeps, id: string | undefined): Promise<Stripe.Subscription | undefined> {
  if (!id || !deps.stripe) return undefined;
  try {
    return await deps.stripe.subscriptions.retrieve(id);
  } catch (err) {
    if ((err as { code?: string }).code === 'resource_missing') return undefined;
    // Anything else (Stripe unreachable): the webhook fails and Stripe delivers it again.
    throw err;
  }
}

async function save(deps: BillingDeps, tx: Tx, sub: Stripe.Subscription): Promise<string[]> {
  const item = sub.items.data[0];
  const plan = planOfLookupKey(item?.price.lookup_key);
  const userId = (await deps.store.userOfCustomer(idOf(sub.customer) ?? '', tx)) ?? sub.metadata?.userId;
  if (!plan || !userId || !isUuid(userId)) {
    deps.log.warn(
      { subscription: sub.id, lookupKey: item?.price.lookup_key },
      'webhook: a subscription that is not one of our plans or users',
    );
    return [];
  }
  const stored = await deps.store.subscription(sub.id, tx);
  const now = new Date();
  await deps.store.saveSubscription(tx, {
    stripeSubscriptionId: sub.id,
    userId,
    tier: plan.tier,
    billingCycle: plan.cycle,
    status: sub.status,
    cancelledAt: sub.cancel_at_period_end || sub.status === 'canceled' ? (stored?.cancelledAt ?? toDate(sub.canceled_at) ?? now) : null,
    periodEnd: toDate(item?.current_period_end),
    graceUntil: graceAfter(sub.status, stored?.graceUntil ?? null, now),
  });
  return [userId];
}

/**
 * A paid invoice of a subscription that now entitles gives its tier's monthly gold (twelve months'
 * for a yearly invoice), keyed by the invoice: a second event about the same invoice (a repeat, or
 * another event type, on any process) finds the key taken and gives nothing.
 */
async function grantMonthlyGold(
  deps: BillingDeps,
  tx: Tx,
  userId: string,
  invoiceId: string | undefined,
  subscriptionId: string,
): Promise<boolean> {
  if (!deps.gold || !invoiceId) return false;
  const sub = await deps.store.subscription(subscriptionId, tx);
  if (!sub || !entitles(sub, new Date())) return false;
  const months = sub.billingCycle === 'yearly' ? 12 : 1;
  const gold = perksOf(sub.tier).monthlyGold * months;
  if (gold <= 0) return false;
  return deps.gold.grantIn(tx, userId, { key: `premiumGold:${invoiceId}`, kind: 'premiumGold', label: monthlyGoldLabel(sub.tier), gold });
}

const toDate = (s: number | null | undefined) => (typeof s === 'number' ? new Date(s * 1000) : null);
