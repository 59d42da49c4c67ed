import Router from '@koa/router';
import { z } from 'zod';
import {
  BILLING_ERR,
  checkoutRequestSchema,
  checkoutSessionIdSchema,
  donationRequestSchema,
  nameStyleRequestSchema,
} from '@parley/contract/billing';
import type { AppDeps, AuthState } from '../deps.ts';
import { HttpError, parse } from '../platform/errors.ts';
import { consume, takeOrRefuse } from '../platform/rateLimit.ts';
import type { BillingService } from './service.ts';

/** Checkout, donation and portal sessions one user may open a minute: each is a call to Stripe. */
export const PAYMENT_SESSIONS_PER_MINUTE = 10;
/** Perk settings (name colour, public thank-you) one user may change a minute. */
export const PERK_CHANGES_PER_MINUTE = 30;
const portalRequestSchema = z.strictObject({ attemptId: checkoutRequestSchema.shape.attemptId });

export function billingRoutes(deps: AppDeps, billing: BillingService): Router {
  const perUser = deps.limiters.create({ keyPrefix: 'billing-sessions', points: PAYMENT_SESSIONS_PER_MINUTE, durationSeconds: 60 });
  const limit = async (userId: string) => {
    const wait = await consume(perUser, userId);
    if (wait > 0) throw new HttpError(429, BILLING_ERR.rateLimited, 'rate_limited', { 'Retry-After': String(wait) });
  };
  const perks = deps.limiters.create({ keyPrefix: 'billing-perks', points: PERK_CHANGES_PER_MINUTE, durationSeconds: 60 });
  const limitPerks = (userId: string) => takeOrRefuse(perks, userId, BILLING_ERR.rateLimited);
  const router = new Router({ prefix: '/billing' });

  // Public: the tiers page shows prices before anyone signs in, or that payments are off.
  router.get('/plans', async (ctx) => {
    ctx.body = await billing.plans();
  });

  router.get('/status', deps.requireUser, async (ctx) => {
    const { user } = ctx.state as AuthState;
    ctx.body = await billing.status(user.userId);
  });

  router.post('/checkout', deps.requireUser, async (ctx) => {
    const { user } = ctx.state as AuthState;
    const body = parse(checkoutRequestSchema, ctx.request.body);
    await limit(user.userId);
    ctx.body = await billing.checkout(user, body);
  });

  router.post('/donation', deps.requireUser, async (ctx) => {
    const { user } = ctx.state as AuthState;
    const body = parse(donationRequestSchema, ctx.request.body);
    await limit(user.userId);
    ctx.body = await billing.donate(user, body);
  });

  router.post('/portal', deps.requireUser, async (ctx) => {
    const { user } = ctx.state as AuthState;
    const { attemptId } = parse(portalRequestSchema, ctx.request.body);
    await limit(user.userId);
    ctx.body = await billing.portal(user.userId, attemptId);
  });

  router.put('/name-style', deps.requireUser, async (ctx) => {
    const { user } = ctx.state as AuthState;
    const { nameColour } = parse(nameStyleRequestSchema, ctx.request.body);
    await limitPerks(user.userId);
    ctx.body = await billing.setNameColour(user.userId, nameColour);
  });

  router.delete('/public-thanks', deps.requireUser, async (ctx) => {
    const { user } = ctx.state as AuthState;
    await limitPerks(user.userId);
    ctx.body = await billing.withdrawPublicThanks(user.userId);
  });

  router.get('/checkout/:id', deps.requireUser, async (ctx) => {
    const { user } = ctx.state as AuthState;
    const id = parse(checkoutSessionIdSchema, ctx.params.id);
    ctx.body = await billing.checkoutStatus(user.userId, id);
  });

  return router;
}
