import type { Context, Next } from 'koa';
import { BILLING_ERR } from '@parley/contract/billing';
import { HttpError } from '../platform/errors.ts';
import type { Logger } from '../platform/logger.ts';
import type { BillingService } from './service.ts';
import type { Stripe } from './stripe.ts';
import { webhookEvent } from '../platform/metrics.ts';

export const WEBHOOK_PATH = '/api/billing/webhook';
/** Stripe's events are a few kilobytes; anything near this is not from Stripe. */
const MAX_WEBHOOK_BYTES = 512 * 1024;

/**
 * `POST /api/billing/webhook`, mounted before the JSON body parser: the signature covers the
 * exact bytes Stripe sent, so the body is read raw and verified before anything is parsed.
 */
export function billingWebhook(opts: { stripe: Stripe | undefined; secret: string | undefined; billing: BillingService; log: Logger }) {
  return async (ctx: Context, next: Next) => {
    if (ctx.path !== WEBHOOK_PATH) return next();
    if (ctx.method !== 'POST') throw new HttpError(405, 'Use POST', 'method_not_allowed', { Allow: 'POST' });
    if (!opts.stripe || !opts.secret) throw new HttpError(503, BILLING_ERR.notConfigured, 'payments_not_configured');
    const raw = await readRaw(ctx);
    let event: Stripe.Event;
    try {
      event = opts.stripe.webhooks.constructEvent(raw, ctx.get('stripe-signature'), opts.secret);
    } catch {
      webhookEvent('bad_signature');
      throw new HttpError(400, BILLING_ERR.badSignature, 'bad_signature');
    }
    try {
      const outcome = await opts.billing.handleEvent(event);
      ctx.body = { received: true, duplicate: outcome === 'duplicate' };
      webhookEvent(outcome === 'duplicate' ? 'duplicate' : 'handled');
    } catch (err) {
      // Not recorded: Stripe delivers the event again later.
      opts.log.warn({ err, event: event.id, type: event.type }, 'webhook event could not be processed now');
      webhookEvent('retry_later');
      throw new HttpError(503, BILLING_ERR.stripeUnavailable, 'retry_later');
    }
  };
}

async function readRaw(ctx: Context): Promise<Buffer> {
  const declared = Number(ctx.get('content-length') || 0);
  if (declared > MAX_WEBHOOK_BYTES) throw new HttpError(413, 'Request body is too large', 'payload_too_large');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_WEBHOOK_BYTES) throw new HttpError(413, 'Request body is too large', 'payload_too_large');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
