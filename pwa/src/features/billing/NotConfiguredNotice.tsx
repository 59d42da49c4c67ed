import { Trans } from '@lingui/react/macro';

/** Shown instead of any payment button on a server without Stripe keys: nothing pretends to charge. */
export function NotConfiguredNotice() {
  return (
    <p role="status" className="mt-6 rounded-xl bg-amber-50 p-4 text-base text-amber-950 ring-1 ring-amber-300">
      <Trans>Payments are not configured on this server. No payment can be made here.</Trans>
    </p>
  );
}
