import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { BillingStatus } from '@parley/contract/billing';
import { findAccountById, insertAccount, tokenUserOf } from '../db/accounts.ts';
import type { TestServer } from './server.ts';
import { signedEvent, type StandInSubscription, type startStripeStandIn } from './stripeStandIn.ts';

type StandIn = Awaited<ReturnType<typeof startStripeStandIn>>;

/** Stripe's side of billing tests: members who opened Checkout, and signed webhook deliveries. */
export function billingRig(stripe: () => StandIn, secret: string) {
  /** A member who opened Checkout for a plan; their subscription is described, not yet told to Stripe. */
  async function subscriber(on: TestServer, lookupKey = 'parley_plus_monthly') {
    const account = await insertAccount(on.deps.db, {
      username: `s${Math.random().toString(36).slice(2, 10)}`,
      passwordHash: 'x',
      age: 30,
      gender: 'male',
      isVerified: true,
    });
    const user = tokenUserOf(account);
    const authorization = `Bearer ${await on.deps.tokens.sign(user)}`;
    const [, tier, cycle] = lookupKey.split('_');
    const opened = await on.api('/api/billing/checkout', {
      method: 'POST',
      json: { tier, cycle, attemptId: randomUUID() },
      headers: { authorization },
    });
    expect(opened.status).toBe(200);
    const sessionId = /cs_test_\d+/.exec(((await opened.json()) as { url: string }).url)![0];
    const customer = stripe().requests.findLast((r) => r.path === '/v1/customers' && r.form['metadata[userId]'] === user.userId);
    expect(customer).toBeDefined();
    // The customer id the stand-in gave this user (the answer is replayed for the same key).
    const customers = await (
      await fetch(`${stripe().base}/v1/customers`, { method: 'POST', headers: { 'idempotency-key': `customer:${user.userId}` } })
    ).json();
    const sub: StandInSubscription = {
      id: `sub_${Math.random().toString(36).slice(2, 10)}`,
      customer: (customers as { id: string }).id,
      lookupKey,
      status: 'active',
    };
    const status = async (via: TestServer = on) =>
      (await (await via.api('/api/billing/status', { headers: { authorization } })).json()) as BillingStatus;
    const tier_ = async () => (await findAccountById(on.deps.db, user.userId))?.premiumUser;
    /** A fetch as this member. */
    const call = (path: string, init: RequestInit & { json?: unknown } = {}, via: TestServer = on) =>
      via.api(path, { ...init, headers: { ...(init.headers as Record<string, string>), authorization } });
    return { user, authorization, sessionId, sub, status, tier: tier_, call };
  }

  async function deliver(to: TestServer, type: string, object: unknown, id?: string) {
    const e = signedEvent(secret, type, object, id);
    const res = await to.api('/api/billing/webhook', {
      method: 'POST',
      body: e.payload,
      headers: { 'stripe-signature': e.signature, 'content-type': 'application/json' },
    });
    return { res, body: (await res.json()) as { received?: boolean; duplicate?: boolean; message?: string }, id: e.id };
  }

  const completed = (sessionId: string, sub: StandInSubscription) => ({
    id: sessionId,
    object: 'checkout.session',
    mode: 'subscription',
    payment_status: 'paid',
    customer: sub.customer,
    subscription: sub.id,
  });

  const invoice = (id: string, sub: StandInSubscription) => ({
    id,
    object: 'invoice',
    customer: sub.customer,
    parent: { subscription_details: { subscription: sub.id } },
  });

  return { subscriber, deliver, completed, invoice };
}
