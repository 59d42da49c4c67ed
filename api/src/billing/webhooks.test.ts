import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io as ioClient, type Socket } from 'socket.io-client';
import { eq } from 'drizzle-orm';
import { billingEvents } from '@parley/contract/billing';
import { stripeEvents } from '../db/schema.ts';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { next } from '../testing/socketClients.ts';
import { billingService } from './service.ts';
import { billingStore } from './store.ts';
import { billingRig } from '../testing/billingRig.ts';
import { signedEvent, startStripeStandIn, subscriptionObject } from '../testing/stripeStandIn.ts';
import { REALTIME_PROTOCOL } from '@parley/contract/protocol';

const SECRET = 'whsec_test_webhooks';
const DAY_S = 24 * 3600;
// Every process of one deployment signs tokens with the same key.
const stripeEnv = (base: string) => ({
  STRIPE_SECRET_KEY: 'sk_test_standin',
  STRIPE_WEBHOOK_SECRET: SECRET,
  STRIPE_API_BASE: base,
  JWT_SECRET: 'a-test-signing-key-shared-by-both-processes',
});

describe('Stripe webhooks are the source of truth for entitlements', () => {
  let server: TestServer;
  let stripe: Awaited<ReturnType<typeof startStripeStandIn>>;
  const sockets: Socket[] = [];
  beforeAll(async () => {
    stripe = await startStripeStandIn([{ lookupKey: 'parley_plus_monthly', amount: 499 }]);
    server = await startTestServer(stripeEnv(stripe.base));
  });
  afterAll(async () => {
    for (const s of sockets) s.disconnect();
    await server?.close();
    await stripe?.close();
  });

  const rig = billingRig(() => stripe, SECRET);
  const subscriber = (on: TestServer = server) => rig.subscriber(on);
  const deliver = (type: string, object: unknown, id?: string, to: TestServer = server) => rig.deliver(to, type, object, id);
  const { completed } = rig;

  it('refuses a forged signature and changes nothing', async () => {
    const s = await subscriber();
    stripe.setSubscription(s.sub);
    const e = signedEvent('whsec_not_ours', 'checkout.session.completed', completed(s.sessionId, s.sub));
    const res = await server.api('/api/billing/webhook', {
      method: 'POST',
      body: e.payload,
      headers: { 'stripe-signature': e.signature, 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toBe('Webhook signature verification failed');
    // A valid signature over a body that was changed afterwards is refused too.
    const good = signedEvent(SECRET, 'checkout.session.completed', completed(s.sessionId, s.sub));
    const tampered = good.payload.replace('"paid"', '"paid" ');
    expect(
      (await server.api('/api/billing/webhook', { method: 'POST', body: tampered, headers: { 'stripe-signature': good.signature } }))
        .status,
    ).toBe(400);
    expect(await s.tier()).toBe('free tier');
    expect(await server.deps.db.select().from(stripeEvents).where(eq(stripeEvents.id, e.id))).toHaveLength(0);
  });

  it('follows a subscription through its life: paid, cancelled at period end, resumed, deleted', async () => {
    const s = await subscriber();
    const socket = ioClient(server.url, {
      path: '/socket.io',
      transports: ['websocket'],
      reconnection: false,
      auth: { token: s.authorization.slice(7), protocol: REALTIME_PROTOCOL },
      query: { userId: s.user.userId },
    });
    sockets.push(socket);
    await new Promise((resolve) => socket.once('connect', () => resolve(undefined)));
    const told = next<{ premiumUser: string }>(socket, billingEvents.entitlements);

    stripe.setSubscription(s.sub);
    expect((await deliver('checkout.session.completed', completed(s.sessionId, s.sub))).res.status).toBe(200);
    expect(await s.tier()).toBe('plus');
    // The open socket learns at once, without a new sign-in.
    expect(await told).toEqual({ premiumUser: 'plus' });
    expect(await s.status()).toMatchObject({
      premiumUser: 'plus',
      billingCycle: 'monthly',
      activeSubscription: true,
      cancelledSubscription: null,
    });
    expect((await s.status()).perks.ownedGroupRooms).toBeGreaterThan(2);

    await deliver('invoice.paid', { id: 'in_1', object: 'invoice', parent: { subscription_details: { subscription: s.sub.id } } });
    expect(await s.tier()).toBe('plus');

    // Cancelled in the portal: perks last until the end of the period.
    stripe.setSubscription({ ...s.sub, cancelAtPeriodEnd: true });
    await deliver('customer.subscription.updated', subscriptionObject({ ...s.sub, cancelAtPeriodEnd: true }));
    const cancelled = await s.status();
    expect(cancelled).toMatchObject({ premiumUser: 'plus', activeSubscription: false });
    expect(cancelled.cancelledSubscription).not.toBeNull();

    // Resumed before the end.
    stripe.setSubscription(s.sub);
    await deliver('customer.subscription.updated', subscriptionObject(s.sub));
    expect(await s.status()).toMatchObject({ activeSubscription: true, cancelledSubscription: null });

    // The period ended: Stripe deletes the subscription.
    stripe.setSubscription({ ...s.sub, status: 'canceled' });
    await deliver('customer.subscription.deleted', subscriptionObject({ ...s.sub, status: 'canceled' }));
    expect(await s.tier()).toBe('free tier');
    expect(await s.status()).toMatchObject({ premiumUser: 'free tier', billingCycle: null, activeSubscription: false });
  });

  it('keeps perks through a grace period after a failed renewal, then returns to the free tier', async () => {
    const s = await subscriber();
    stripe.setSubscription(s.sub);
    await deliver('checkout.session.completed', completed(s.sessionId, s.sub));
    stripe.setSubscription({ ...s.sub, status: 'past_due' });
    await deliver('invoice.payment_failed', {
      id: 'in_f',
      object: 'invoice',
      parent: { subscription_details: { subscription: s.sub.id } },
    });
    const owing = await s.status();
    expect(owing.premiumUser).toBe('plus');
    expect(owing.graceUntil).not.toBeNull();
    // Grace runs out with no payment: the sweep (any process may run it) ends the perks.
    const sweeper = billingService({
      db: server.deps.db,
      store: billingStore(server.deps.db),
      stripe: undefined,
      log: server.deps.log,
      publicUrl: server.url,
      donationCurrency: 'usd',
      tierChanged: () => undefined,
    });
    const later = new Date(Date.parse(owing.graceUntil!) + 1000);
    expect(await sweeper.endExpiredGrace(new Date())).toBe(0);
    const swept = await sweeper.endExpiredGrace(later);
    expect(swept).toBeGreaterThanOrEqual(1);
    expect(await s.tier()).toBe('free tier');
    // A late payment brings them back.
    stripe.setSubscription(s.sub);
    await deliver('invoice.paid', { id: 'in_p', object: 'invoice', parent: { subscription_details: { subscription: s.sub.id } } });
    expect(await s.tier()).toBe('plus');
    expect((await s.status()).graceUntil).toBeNull();
  });

  it('processes an event delivered three times once', async () => {
    const s = await subscriber();
    stripe.setSubscription(s.sub);
    const id = `evt_${randomUUID()}`;
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push((await deliver('checkout.session.completed', completed(s.sessionId, s.sub), id)).body);
    expect(answers.map((a) => a.duplicate)).toEqual([false, true, true]);
    expect(await server.deps.db.select().from(stripeEvents).where(eq(stripeEvents.id, id))).toHaveLength(1);
    expect(await s.tier()).toBe('plus');
  });

  it('reads the current state, so events out of order never move a subscription back', async () => {
    const s = await subscriber();
    // Stripe now says: active. The events arrive newest first.
    stripe.setSubscription(s.sub);
    await deliver('customer.subscription.updated', subscriptionObject(s.sub));
    expect(await s.tier()).toBe('plus');
    await deliver('customer.subscription.created', subscriptionObject({ ...s.sub, status: 'incomplete' }));
    expect(await s.tier()).toBe('plus');
    // And the other way: deleted at Stripe, while an old "active" update arrives late.
    stripe.setSubscription({ ...s.sub, status: 'canceled', periodEnd: Math.floor(Date.now() / 1000) - DAY_S });
    await deliver('customer.subscription.deleted', subscriptionObject({ ...s.sub, status: 'canceled' }));
    await deliver('customer.subscription.updated', subscriptionObject(s.sub));
    expect(await s.tier()).toBe('free tier');
  });

  it('holds across API processes sharing PostgreSQL and Redis', async (ctx) => {
    if (!process.env.DATABASE_URL || !process.env.REDIS_URL) ctx.skip();
    const other = await startTestServer({
      ...stripeEnv(stripe.base),
      DATABASE_URL: server.deps.cfg.DATABASE_URL!,
      REDIS_KEY_PREFIX: server.deps.cfg.REDIS_KEY_PREFIX,
    });
    try {
      const s = await subscriber();
      // Signed in on the other process; the webhook reaches this one.
      const socket = ioClient(other.url, {
        path: '/socket.io',
        transports: ['websocket'],
        reconnection: false,
        auth: { token: s.authorization.slice(7), protocol: REALTIME_PROTOCOL },
        query: { userId: s.user.userId },
      });
      sockets.push(socket);
      await new Promise((resolve, reject) => {
        socket.once('connect', () => resolve(undefined));
        socket.once('connect_error', reject);
      });
      const told = next<{ premiumUser: string }>(socket, billingEvents.entitlements);
      stripe.setSubscription(s.sub);
      const id = `evt_${randomUUID()}`;
      await deliver('checkout.session.completed', completed(s.sessionId, s.sub), id);
      expect(await told).toEqual({ premiumUser: 'plus' });
      expect((await s.status(other)).premiumUser).toBe('plus');
      // The same event delivered to the other process is a duplicate there too.
      expect((await deliver('checkout.session.completed', completed(s.sessionId, s.sub), id, other)).body.duplicate).toBe(true);
    } finally {
      await other.close();
    }
  });
});
