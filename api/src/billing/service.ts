import {
  BILLING_CYCLES,
  BILLING_ERR,
  NAME_COLOURS,
  PREMIUM_TIERS,
  nameStyleOf,
  perksOf,
  priceLookupKey,
  tierOf,
  type BillingPlans,
  type BillingStatus,
  type CheckoutAnswer,
  type CheckoutRequest,
  type CheckoutStatus,
  type DonationRequest,
  type NameColour,
  type NameStyle,
  type PublicThanksAnswer,
  type PlanPrice,
  type Tier,
} from '@parley/contract/billing';
import type { TokenUser } from '@parley/contract/auth';
import type { Db } from '../db/client.ts';
import { findAccountById } from '../db/accounts.ts';
import { DomainError } from '../platform/errors.ts';
import type { Logger } from '../platform/logger.ts';
import { governing, tierFrom } from './entitlements.ts';
import type { BillingStore } from './store.ts';
import type { Stripe } from './stripe.ts';
import { applyEvent } from './webhookEvents.ts';

/** How long the prices read from Stripe are reused before asking again. */
const PRICES_TTL_MS = 5 * 60 * 1000;
/** Currencies Stripe counts in whole units (no cents). */
const ZERO_DECIMAL = new Set([
  'bif',
  'clp',
  'djf',
  'gnf',
  'jpy',
  'kmf',
  'krw',
  'mga',
  'pyg',
  'rwf',
  'ugx',
  'vnd',
  'vuv',
  'xaf',
  'xof',
  'xpf',
]);
export const minorUnits = (amount: number, currency: string) => (ZERO_DECIMAL.has(currency) ? amount : amount * 100);

export type BillingDeps = {
  db: Db;
  store: BillingStore;
  stripe: Stripe | undefined;
  log: Logger;
  publicUrl: string;
  donationCurrency: string;
  /** Told after a commit that changed a user's tier: their open sockets take a fresh token. */
  tierChanged(userId: string, tier: Tier): void;
  /** The gold ledger (missions): a paid premium month's gold is written in the webhook's transaction. */
  gold?: GoldLedger;
};

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type GoldLedger = {
  /** Credits gold once per key, inside `tx`; false when the key was credited before. */
  grantIn(tx: Tx, userId: string, grant: { key: string; kind: string; label: string; gold: number }): Promise<boolean>;
  /** After the commit: the user's pages refresh their rewards. */
  announce(userId: string): void;
};

const notConfigured = () => new DomainError('unavailable', BILLING_ERR.notConfigured, 'payments_not_configured');

/** Turns the SDK's network and API failures into an answer the user can act on. */
async function callStripe<T>(log: Logger, what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    log.warn({ err, what }, 'Stripe call failed');
    throw new DomainError('unavailable', BILLING_ERR.stripeUnavailable, 'stripe_unavailable');
  }
}

export function billingService(deps: BillingDeps) {
  const { store, log } = deps;
  let prices: { at: number; byKey: Map<string, { id: string; amount: number; currency: string }> } | undefined;

  function stripeOrThrow(): Stripe {
    if (!deps.stripe) throw notConfigured();
    return deps.stripe;
  }

  /** The four plan prices, by lookup key, read from Stripe (amounts are never ours to invent). */
  async function planPrices() {
    const stripe = stripeOrThrow();
    if (prices && Date.now() - prices.at < PRICES_TTL_MS) return prices.byKey;
    const keys = PREMIUM_TIERS.flatMap((tier) => BILLING_CYCLES.map((cycle) => priceLookupKey(tier, cycle)));
    const list = await callStripe(log, 'prices.list', () => stripe.prices.list({ lookup_keys: keys, active: true, limit: keys.length }));
    const byKey = new Map<string, { id: string; amount: number; currency: string }>();
    for (const p of list.data)
      if (p.lookup_key && p.unit_amount !== null) byKey.set(p.lookup_key, { id: p.id, amount: p.unit_amount, currency: p.currency });
    prices = { at: Date.now(), byKey };
    return byKey;
  }

  async function customerFor(user: TokenUser): Promise<string> {
    const known = await store.customerOf(user.userId);
    if (known) return known;
    const stripe = stripeOrThrow();
    const customer = await callStripe(log, 'customers.create', () =>
      stripe.customers.create(
        { description: user.username, metadata: { userId: user.userId } },
        { idempotencyKey: `customer:${user.userId}` },
      ),
    );
    return store.saveCustomer(user.userId, customer.id);
  }

  const successUrl = () => `${deps.publicUrl}/payment/success?session_id={CHECKOUT_SESSION_ID}`;

  return {
    configured: () => deps.stripe !== undefined,

    async plans(): Promise<BillingPlans> {
      if (!deps.stripe) return { configured: false };
      const byKey = await planPrices();
      const list: PlanPrice[] = [];
      for (const tier of PREMIUM_TIERS)
        for (const cycle of BILLING_CYCLES) {
          const p = byKey.get(priceLookupKey(tier, cycle));
          if (p) list.push({ tier, cycle, amount: p.amount, currency: p.currency });
        }
      return { configured: true, prices: list, donationCurrency: deps.donationCurrency };
    },

    async status(userId: string): Promise<BillingStatus> {
      const account = await findAccountById(deps.db, userId);
      const subs = await store.subscriptionsOf(userId);
      const now = new Date();
      const sub = governing(subs, now);
      const premiumUser = tierOf(account?.premiumUser ?? '');
      return {
        configured: deps.stripe !== undefined,
        premiumUser,
        billingCycle: sub?.billingCycle ?? null,
        activeSubscription: sub !== undefined && sub.cancelledAt === null,
        cancelledSubscription: sub?.cancelledAt?.toISOString() ?? null,
        periodEnd: sub?.periodEnd?.toISOString() ?? null,
        graceUntil: sub?.graceUntil?.toISOString() ?? null,
        perks: perksOf(premiumUser),
        nameColour: account?.nameColour && Object.hasOwn(NAME_COLOURS, account.nameColour) ? (account.nameColour as NameColour) : null,
        thankedDonor: (await store.thankedInPublic([userId])).has(userId),
      };
    },

    async checkout(user: TokenUser, req: CheckoutRequest): Promise<CheckoutAnswer> {
      const stripe = stripeOrThrow();
      if (governing(await store.subscriptionsOf(user.userId), new Date()))
        throw new DomainError('conflict', BILLING_ERR.alreadySubscribed, 'already_subscribed');
      const price = (await planPrices()).get(priceLookupKey(req.tier, req.cycle));
      if (!price) throw new DomainError('unavailable', BILLING_ERR.priceMissing, 'price_missing');
      const customer = await customerFor(user);
      const session = await callStripe(log, 'checkout.sessions.create', () =>
        stripe.checkout.sessions.create(
          {
            mode: 'subscription',
            customer,
            client_reference_id: user.userId,
            line_items: [{ price: price.id, quantity: 1 }],
            success_url: successUrl(),
            cancel_url: `${deps.publicUrl}/premium-membership`,
            metadata: { userId: user.userId, tier: req.tier, cycle: req.cycle },
            subscription_data: { metadata: { userId: user.userId } },
          },
          { idempotencyKey: `checkout:${user.userId}:${req.attemptId}` },
        ),
      );
      if (!session.url) throw new DomainError('unavailable', BILLING_ERR.stripeUnavailable, 'stripe_unavailable');
      await store.openCheckout({ id: session.id, userId: user.userId, kind: 'subscription', tier: req.tier, billingCycle: req.cycle });
      return { url: session.url };
    },

    async donate(user: TokenUser, req: DonationRequest): Promise<CheckoutAnswer> {
      const stripe = stripeOrThrow();
      const currency = deps.donationCurrency;
      const amount = minorUnits(req.amount, currency);
      const customer = await customerFor(user);
      const session = await callStripe(log, 'checkout.sessions.create', () =>
        stripe.checkout.sessions.create(
          {
            mode: 'payment',
            submit_type: 'donate',
            customer,
            client_reference_id: user.userId,
            line_items: [{ quantity: 1, price_data: { currency, unit_amount: amount, product_data: { name: 'Donation to Parley' } } }],
            success_url: successUrl(),
            cancel_url: `${deps.publicUrl}/donate`,
            metadata: { userId: user.userId, kind: 'donation' },
          },
          { idempotencyKey: `donation:${user.userId}:${req.attemptId}` },
        ),
      );
      if (!session.url) throw new DomainError('unavailable', BILLING_ERR.stripeUnavailable, 'stripe_unavailable');
      await store.openCheckout({ id: session.id, userId: user.userId, kind: 'donation', amount, currency, publicThanks: req.publicThanks });
      return { url: session.url };
    },

    /** The Stripe customer portal: cancel, resume, change cycle, payment method, invoices. */
    async portal(userId: string, attemptId: string): Promise<CheckoutAnswer> {
      const stripe = stripeOrThrow();
      const customer = await store.customerOf(userId);
      if (!customer) throw new DomainError('conflict', BILLING_ERR.noSubscription, 'no_subscription');
      const session = await callStripe(log, 'billingPortal.sessions.create', () =>
        stripe.billingPortal.sessions.create(
          { customer, return_url: `${deps.publicUrl}/premium-membership` },
          { idempotencyKey: `portal:${userId}:${attemptId}` },
        ),
      );
      return { url: session.url };
    },

    /** A premium member's name colour; the tier is read as stored now, so a lapsed member is refused. */
    async setNameColour(userId: string, nameColour: NameColour | null): Promise<NameStyle> {
      const account = await findAccountById(deps.db, userId);
      if (!account || account.deletedAt) throw new DomainError('unauthenticated', 'Your account no longer exists.', 'unauthorized');
      if (!perksOf(account.premiumUser).badge) throw new DomainError('forbidden', BILLING_ERR.nameColourPremium, 'premium_required');
      await store.setNameColour(userId, nameColour);
      return nameStyleOf(account.premiumUser, nameColour);
    },

    /** The donor removes their public thank-you (only ever their own donations). */
    async withdrawPublicThanks(userId: string): Promise<PublicThanksAnswer> {
      await store.withdrawThanks(userId);
      return { thankedDonor: false };
    },

    /** Another user's session is "not found", exactly as an unknown one. */
    async checkoutStatus(userId: string, id: string): Promise<CheckoutStatus> {
      const record = await store.checkout(id);
      if (!record || record.userId !== userId) throw new DomainError('not_found', 'No such payment.', 'not_found');
      if (record.state === 'open') return { id, state: 'confirming' };
      if (record.state === 'expired') return { id, state: 'expired' };
      if (record.kind === 'subscription')
        return { id, state: 'complete', kind: 'subscription', tier: record.tier!, cycle: record.billingCycle! };
      return { id, state: 'complete', kind: 'donation', amount: record.amount ?? 0, currency: record.currency ?? deps.donationCurrency };
    },

    /** One verified webhook event: processed once, from Stripe's current state. */
    async handleEvent(event: Stripe.Event): Promise<'processed' | 'duplicate'> {
      if (await store.seen(event.id)) return 'duplicate';
      const outcome = await applyEvent(deps, event);
      for (const [userId, tier] of outcome.changed) deps.tierChanged(userId, tier);
      return outcome.duplicate ? 'duplicate' : 'processed';
    },

    /** Ends the perks of failed renewals whose grace ran out (idempotent; any process may run it). */
    async endExpiredGrace(now = new Date()): Promise<number> {
      const userIds = await store.graceEnded(now);
      for (const userId of userIds) {
        const tier = tierFrom(governing(await store.subscriptionsOf(userId), now));
        if (await store.setTier(deps.db, userId, tier)) deps.tierChanged(userId, tier);
      }
      return userIds.length;
    },
  };
}

export type BillingService = ReturnType<typeof billingService>;
