import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import type { BillingCycle, NameColour, PremiumTier, Tier } from '@parley/contract/billing';
import type { Db } from '../db/client.ts';
import { billingCustomers, checkoutSessions, stripeEvents, subscriptions, users } from '../db/schema.ts';
import type { SubscriptionState } from './entitlements.ts';

export type StoredSubscription = SubscriptionState & { stripeSubscriptionId: string; userId: string };
export type CheckoutRecord = typeof checkoutSessions.$inferSelect;
/** A transaction or the database: the writes of one webhook event happen in one transaction. */
type Tx = Pick<Db, 'select' | 'insert' | 'update'>;

/** Billing's rows in PostgreSQL (PGlite or a server): the one source of entitlements. */
export function billingStore(db: Db) {
  return {
    async customerOf(userId: string): Promise<string | undefined> {
      const [row] = await db.select().from(billingCustomers).where(eq(billingCustomers.userId, userId)).limit(1);
      return row?.stripeCustomerId;
    },

    async userOfCustomer(customerId: string, tx: Tx = db): Promise<string | undefined> {
      const [row] = await tx.select().from(billingCustomers).where(eq(billingCustomers.stripeCustomerId, customerId)).limit(1);
      return row?.userId;
    },

    /** Keeps the first customer recorded for a user (two tabs racing create one each at most). */
    async saveCustomer(userId: string, customerId: string): Promise<string> {
      await db.insert(billingCustomers).values({ userId, stripeCustomerId: customerId }).onConflictDoNothing();
      return (await this.customerOf(userId)) ?? customerId;
    },

    async subscriptionsOf(userId: string, tx: Tx = db): Promise<StoredSubscription[]> {
      return tx.select().from(subscriptions).where(eq(subscriptions.userId, userId));
    },

    async subscription(id: string, tx: Tx = db): Promise<StoredSubscription | undefined> {
      const [row] = await tx.select().from(subscriptions).where(eq(subscriptions.stripeSubscriptionId, id)).limit(1);
      return row;
    },

    async saveSubscription(tx: Tx, sub: StoredSubscription): Promise<void> {
      const { stripeSubscriptionId, ...rest } = sub;
      await tx
        .insert(subscriptions)
        .values({ stripeSubscriptionId, ...rest, updatedAt: new Date() })
        .onConflictDoUpdate({ target: subscriptions.stripeSubscriptionId, set: { ...rest, updatedAt: new Date() } });
    },

    /** Users with a failed renewal whose grace has run out: their tier must be computed again. */
    async graceEnded(now: Date): Promise<string[]> {
      const rows = await db
        .selectDistinct({ userId: subscriptions.userId })
        .from(subscriptions)
        .where(and(eq(subscriptions.status, 'past_due'), lt(subscriptions.graceUntil, now)));
      return rows.map((r) => r.userId);
    },

    /** Sets the tier the access token carries; true when it changed. */
    async setTier(tx: Tx, userId: string, tier: Tier): Promise<boolean> {
      const changed = await tx
        .update(users)
        .set({ premiumUser: tier })
        .where(and(eq(users.id, userId), sql`${users.premiumUser} <> ${tier}`))
        .returning({ id: users.id });
      return changed.length > 0;
    },

    /** Records an event id; false when it was recorded before (a repeated delivery). */
    async firstDelivery(tx: Tx, id: string, type: string): Promise<boolean> {
      const rows = await tx.insert(stripeEvents).values({ id, type }).onConflictDoNothing().returning({ id: stripeEvents.id });
      return rows.length > 0;
    },

    async seen(id: string): Promise<boolean> {
      const rows = await db.select({ id: stripeEvents.id }).from(stripeEvents).where(eq(stripeEvents.id, id)).limit(1);
      return rows.length > 0;
    },

    async openCheckout(record: {
      id: string;
      userId: string;
      kind: 'subscription' | 'donation';
      tier?: PremiumTier;
      billingCycle?: BillingCycle;
      amount?: number;
      currency?: string;
      publicThanks?: boolean;
    }): Promise<void> {
      // The same idempotency key gives back the same session: recording it twice is harmless.
      await db.insert(checkoutSessions).values(record).onConflictDoNothing();
    },

    async checkout(id: string, tx: Tx = db): Promise<CheckoutRecord | undefined> {
      const [row] = await tx.select().from(checkoutSessions).where(eq(checkoutSessions.id, id)).limit(1);
      return row;
    },

    async completeCheckout(tx: Tx, id: string, paymentIntentId: string | null): Promise<void> {
      await tx
        .update(checkoutSessions)
        .set({ state: 'complete', completedAt: new Date(), paymentIntentId })
        .where(and(eq(checkoutSessions.id, id), eq(checkoutSessions.state, 'open')));
    },

    async expireCheckout(tx: Tx, id: string): Promise<void> {
      await tx
        .update(checkoutSessions)
        .set({ state: 'expired' })
        .where(and(eq(checkoutSessions.id, id), eq(checkoutSessions.state, 'open')));
    },

    /** A refunded donation no longer thanks its donor in public. */
    async refundDonation(tx: Tx, paymentIntentId: string): Promise<void> {
      await tx
        .update(checkoutSessions)
        .set({ state: 'refunded', publicThanks: false })
        .where(and(eq(checkoutSessions.paymentIntentId, paymentIntentId), eq(checkoutSessions.kind, 'donation')));
    },

    /** The donor takes back their public thank-you: no donation of theirs shows it any more. */
    async withdrawThanks(userId: string): Promise<void> {
      await db
        .update(checkoutSessions)
        .set({ publicThanks: false })
        .where(and(eq(checkoutSessions.userId, userId), eq(checkoutSessions.kind, 'donation'), eq(checkoutSessions.publicThanks, true)));
    },

    async setNameColour(userId: string, nameColour: NameColour | null): Promise<void> {
      await db.update(users).set({ nameColour }).where(eq(users.id, userId));
    },

    /** Whether a user made a donation they chose to be thanked for in public. */
    async thankedInPublic(userIds: string[]): Promise<Set<string>> {
      if (userIds.length === 0) return new Set();
      const rows = await db
        .selectDistinct({ userId: checkoutSessions.userId })
        .from(checkoutSessions)
        .where(
          and(
            inArray(checkoutSessions.userId, userIds),
            eq(checkoutSessions.kind, 'donation'),
            eq(checkoutSessions.state, 'complete'),
            eq(checkoutSessions.publicThanks, true),
          ),
        );
      return new Set(rows.map((r) => r.userId));
    },
  };
}

export type BillingStore = ReturnType<typeof billingStore>;
