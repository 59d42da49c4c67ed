import { BILLING_ERR } from '@parley/contract/billing';

/** Shown instead of any payment button on a server without Stripe keys: nothing pretends to charge. */
export function NotConfiguredNotice() {
  return (
    <p role="status" className="mt-6 rounded-xl bg-amber-50 p-4 text-base text-amber-950 ring-1 ring-amber-300">
      {BILLING_ERR.notConfigured} No payment can be made here.
    </p>
  );
}
