import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BILLING_ERR, type BillingPlans, type CheckoutStatus } from '@parley/contract/billing';
import { insertAccount, tokenUserOf } from '../db/accounts.ts';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { signedEvent, startStripeStandIn } from '../testing/stripeStandIn.ts';

const PRICES = [
  { lookupKey: 'parley_plus_monthly', amount: 499 },
  { lookupKey: 'parley_plus_yearly', amount: 4_799 },
  { lookupKey: 'parley_pro_monthly', amount: 999 },
  { lookupKey: 'parley_pro_yearly', amount: 9_599 },
];
const SECRET = 'whsec_test_checkout';

describe('Checkout, donations and the portal against the Stripe API (a local stand-in)', () => {
  let server: TestServer;
  let stripe: Awaited<ReturnType<typeof startStripeStandIn>>;
  beforeAll(async () => {
    stripe = await startStripeStandIn(PRICES);
    server = await startTestServer({
      STRIPE_SECRET_KEY: 'sk_test_standin',
      STRIPE_WEBHOOK_SECRET: SECRET,
      STRIPE_API_BASE: stripe.base,
      PUBLIC_URL: 'https://parley.example',
    });
  });
  afterAll(async () => {
    await server?.close();
    await stripe?.close();
  });

  async function member(name = `m${Math.random().toString(36).slice(2, 10)}`) {
    const account = await insertAccount(server.deps.db, { username: name, passwordHash: 'x', age: 25, gender: 'female', isVerified: true });
    const user = tokenUserOf(account);
    const authorization = `Bearer ${await server.deps.tokens.sign(user)}`;
    const post = (path: string, json: unknown) => server.api(path, { method: 'POST', json, headers: { authorization } });
    const get = (path: string) => server.api(path, { headers: { authorization } });
    return { user, post, get };
  }

  it('lists the tiers with the prices Stripe holds, to anyone', async () => {
    const res = await server.api('/api/billing/plans');
    expect(res.status).toBe(200);
    const plans = (await res.json()) as BillingPlans;
    expect(plans).toMatchObject({ configured: true, donationCurrency: 'usd' });
    if (!plans.configured) throw new Error('configured');
    expect(plans.prices).toContainEqual({ tier: 'pro', cycle: 'yearly', amount: 9_599, currency: 'usd' });
    expect(plans.prices).toHaveLength(4);
  });

  it('opens a subscription Checkout with the right price, customer, mode, URLs and idempotency keys', async () => {
    const m = await member();
    const attemptId = randomUUID();
    const res = await m.post('/api/billing/checkout', { tier: 'plus', cycle: 'yearly', attemptId });
    expect(res.status).toBe(200);
    const { url } = (await res.json()) as { url: string };
    expect(url).toMatch(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/);

    const customer = stripe.requests.find((r) => r.path === '/v1/customers' && r.form['metadata[userId]'] === m.user.userId);
    expect(customer?.idempotencyKey).toBe(`customer:${m.user.userId}`);
    const session = stripe.requests.findLast((r) => r.path === '/v1/checkout/sessions');
    expect(session?.idempotencyKey).toBe(`checkout:${m.user.userId}:${attemptId}`);
    expect(session?.form).toMatchObject({
      mode: 'subscription',
      customer: expect.stringMatching(/^cus_test/),
      client_reference_id: m.user.userId,
      'line_items[0][price]': 'price_1_parley_plus_yearly',
      'line_items[0][quantity]': '1',
      success_url: 'https://parley.example/payment/success?session_id={CHECKOUT_SESSION_ID}',
      cancel_url: 'https://parley.example/premium-membership',
      'subscription_data[metadata][userId]': m.user.userId,
    });

    // The same click retried: Stripe gives the same session back, and no second customer is made.
    const again = await m.post('/api/billing/checkout', { tier: 'plus', cycle: 'yearly', attemptId });
    expect(((await again.json()) as { url: string }).url).toBe(url);
    expect(stripe.requests.filter((r) => r.path === '/v1/customers' && r.form['metadata[userId]'] === m.user.userId)).toHaveLength(1);
  });

  it('opens a donation Checkout in the configured currency, in its smallest unit', async () => {
    const m = await member();
    const res = await m.post('/api/billing/donation', { amount: 7, publicThanks: true, attemptId: randomUUID() });
    expect(res.status).toBe(200);
    const session = stripe.requests.findLast((r) => r.path === '/v1/checkout/sessions');
    expect(session?.form).toMatchObject({
      mode: 'payment',
      submit_type: 'donate',
      'line_items[0][price_data][currency]': 'usd',
      'line_items[0][price_data][unit_amount]': '700',
      cancel_url: 'https://parley.example/donate',
    });
    expect(session?.idempotencyKey).toMatch(/^donation:/);
  });

  it('refuses bad bodies with a message, and strangers with 401', async () => {
    const m = await member();
    for (const body of [
      { tier: 'gold', cycle: 'monthly', attemptId: randomUUID() },
      { tier: 'plus', cycle: 'weekly', attemptId: randomUUID() },
      { tier: 'plus', cycle: 'monthly', attemptId: 'not-a-uuid' },
      { tier: 'plus', cycle: 'monthly', attemptId: randomUUID(), price: 1 },
    ]) {
      const res = await m.post('/api/billing/checkout', body);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { message: string }).message).toBeTruthy();
    }
    for (const amount of [0, 1001, 2.5, '5']) {
      const res = await m.post('/api/billing/donation', { amount, publicThanks: false, attemptId: randomUUID() });
      expect(res.status).toBe(400);
    }
    const anon = await server.api('/api/billing/checkout', {
      method: 'POST',
      json: { tier: 'plus', cycle: 'monthly', attemptId: randomUUID() },
    });
    expect(anon.status).toBe(401);
  });

  it('opens the customer portal only for someone who has a Stripe customer', async () => {
    const m = await member();
    const none = await m.post('/api/billing/portal', { attemptId: randomUUID() });
    expect(none.status).toBe(409);
    expect(((await none.json()) as { message: string }).message).toBe(BILLING_ERR.noSubscription);
    await m.post('/api/billing/checkout', { tier: 'pro', cycle: 'monthly', attemptId: randomUUID() });
    const attemptId = randomUUID();
    const res = await m.post('/api/billing/portal', { attemptId });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { url: string }).url).toMatch(/^https:\/\/billing\.stripe\.com\//);
    const portal = stripe.requests.findLast((r) => r.path === '/v1/billing_portal/sessions');
    expect(portal?.form).toMatchObject({ return_url: 'https://parley.example/premium-membership' });
    expect(portal?.idempotencyKey).toBe(`portal:${m.user.userId}:${attemptId}`);
  });

  it('shows a session as confirming until its webhook arrives, and only to its owner', async () => {
    const m = await member();
    const other = await member();
    const opened = await m.post('/api/billing/donation', { amount: 5, publicThanks: false, attemptId: randomUUID() });
    const id = /cs_test_\d+/.exec(((await opened.json()) as { url: string }).url)?.[0];
    expect(id).toBeDefined();
    expect(await (await m.get(`/api/billing/checkout/${id}`)).json()).toEqual({ id, state: 'confirming' });
    // Another user asking for it learns nothing, not even that it exists.
    expect((await other.get(`/api/billing/checkout/${id}`)).status).toBe(404);
    expect((await m.get('/api/billing/checkout/not-a-session')).status).toBe(400);

    const event = signedEvent(SECRET, 'checkout.session.completed', {
      id,
      object: 'checkout.session',
      mode: 'payment',
      payment_status: 'paid',
      payment_intent: 'pi_test_1',
      customer: 'cus_x',
    });
    const hook = await server.api('/api/billing/webhook', {
      method: 'POST',
      body: event.payload,
      headers: { 'stripe-signature': event.signature, 'content-type': 'application/json' },
    });
    expect(hook.status).toBe(200);
    const status = (await (await m.get(`/api/billing/checkout/${id}`)).json()) as CheckoutStatus;
    expect(status).toEqual({ id, state: 'complete', kind: 'donation', amount: 500, currency: 'usd' });
  });
});

describe('Billing without Stripe keys', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  it('says payments are not configured and charges nothing', async () => {
    expect(await (await server.api('/api/billing/plans')).json()).toEqual({ configured: false });
    const account = await insertAccount(server.deps.db, {
      username: 'nokeys',
      passwordHash: 'x',
      age: 30,
      gender: 'male',
      isVerified: true,
    });
    const authorization = `Bearer ${await server.deps.tokens.sign(tokenUserOf(account))}`;
    const res = await server.api('/api/billing/checkout', {
      method: 'POST',
      json: { tier: 'plus', cycle: 'monthly', attemptId: randomUUID() },
      headers: { authorization },
    });
    expect(res.status).toBe(503);
    expect(((await res.json()) as { message: string }).message).toBe(BILLING_ERR.notConfigured);
    const hook = await server.api('/api/billing/webhook', { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
    expect(hook.status).toBe(503);
  });
});
