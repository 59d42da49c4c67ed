import type Stripe from 'stripe';
import { lazyRequire } from '../platform/lazyRequire.ts';
import type { Config } from '../platform/config.ts';

/**
 * The Stripe SDK when payments are configured, else undefined. `STRIPE_API_BASE` points it at
 * another host (stripe-mock, or the stand-in the tests run); the code path is the real one.
 */
export function createStripe(cfg: Config): Stripe | undefined {
  if (!cfg.STRIPE_SECRET_KEY) return undefined;
  // Loaded only when payments are configured.
  const StripeSdk = lazyRequire('stripe') as typeof Stripe;
  const base = cfg.STRIPE_API_BASE ? new URL(cfg.STRIPE_API_BASE) : undefined;
  return new StripeSdk(cfg.STRIPE_SECRET_KEY, {
    maxNetworkRetries: 2,
    timeout: 10_000,
    telemetry: false,
    ...(base && {
      host: base.hostname,
      port: Number(base.port || (base.protocol === 'https:' ? 443 : 80)),
      protocol: base.protocol === 'https:' ? 'https' : 'http',
    }),
  });
}

export type { Stripe };
