import { billingEvents, type EntitlementsChanged } from '@parley/contract/billing';
import type { AppDeps } from '../deps.ts';
import { publicUrl } from '../platform/config.ts';
import { billingRoutes } from './routes.ts';
import { billingService, type GoldLedger } from './service.ts';
import { billingStore } from './store.ts';
import { createStripe } from './stripe.ts';
import { billingWebhook } from './webhook.ts';

/** How often each process looks for failed renewals whose grace has run out. */
const GRACE_SWEEP_MS = 60_000;

/** Premium and donations through Stripe; entitlements change only from verified webhooks. */
export function createBilling(deps: AppDeps, needs: { gold?: GoldLedger } = {}) {
  const stripe = createStripe(deps.cfg);
  const store = billingStore(deps.db);
  const billing = billingService({
    db: deps.db,
    store,
    stripe,
    log: deps.log,
    publicUrl: publicUrl(deps.cfg),
    donationCurrency: deps.cfg.DONATION_CURRENCY,
    ...(needs.gold && { gold: needs.gold }),
    tierChanged(userId, premiumUser) {
      const changed: EntitlementsChanged = { premiumUser };
      deps.realtime.toUser(userId, billingEvents.entitlements, changed);
    },
  });
  const sweep = stripe
    ? setInterval(
        () => void billing.endExpiredGrace().catch((err: unknown) => deps.log.warn({ err }, 'grace sweep failed')),
        GRACE_SWEEP_MS,
      )
    : undefined;
  sweep?.unref();
  return {
    routes: billingRoutes(deps, billing),
    webhook: billingWebhook({ stripe, secret: deps.cfg.STRIPE_WEBHOOK_SECRET, billing, log: deps.log }),
    /** Donors who asked to be thanked in public, for profiles. */
    thankedInPublic: (userIds: string[]) => store.thankedInPublic(userIds),
    service: billing,
    close: async () => clearInterval(sweep),
  };
}
