import { useId, useState } from 'react';
import { Link } from 'react-router-dom';
import {
  BILLING_CYCLES,
  PREMIUM_TIERS,
  type BillingCycle,
  type BillingStatus,
  type PlanPrice,
  type PremiumTier,
  type Tier,
} from '@parley/contract/billing';
import { DocumentTitle } from '../../components/DocumentTitle';
import { focusRing, primaryButton } from '../../components/ui/buttonStyles';
import { describeApiError as apiErrorMessage } from '../../lib/apiError';
import { useStripeRedirect } from './useStripeRedirect';
import { perkLines, tierName } from './perkLines';
import { formatPrice, useBillingPlansQuery, useBillingStatusQuery, useOpenPortalMutation, useStartCheckoutMutation } from './billingApi';
import { NotConfiguredNotice } from './NotConfiguredNotice';
import { NameColourSetting } from './NameColourSetting';
import { useAppSelector } from '../../store/hooks';
import { Trans, useLingui } from '@lingui/react/macro';

const TIERS: Tier[] = ['free tier', ...PREMIUM_TIERS];

/** /premium-membership: the tiers, the member's plan, and Checkout or the Stripe portal. */
export default function PremiumPage() {
  const plans = useBillingPlansQuery();
  const status = useBillingStatusQuery();
  const [cycle, setCycle] = useState<BillingCycle>('monthly');
  const [checkout, checkoutState] = useStartCheckoutMutation();
  const [portal, portalState] = useOpenPortalMutation();
  const { error, open } = useStripeRedirect();
  const cycleLabel = useId();
  const { t } = useLingui();

  const configured = plans.data?.configured === true;
  const prices: PlanPrice[] = plans.data?.configured ? plans.data.prices : [];
  const current = status.data?.premiumUser ?? 'free tier';
  const busy = checkoutState.isLoading || portalState.isLoading;

  return (
    <main id="main" className="min-h-frame bg-slate-50">
      <DocumentTitle title={t`Premium membership · Parley`} />
      <div className="mx-auto max-w-6xl px-4 py-10 sm:px-6 md:py-14">
        <h1 className="text-3xl font-bold tracking-tight text-slate-950 sm:text-4xl">
          <Trans>Premium membership</Trans>
        </h1>
        <p className="mt-3 max-w-2xl text-lg text-slate-700">
          <Trans>
            Premium keeps Parley running and adds conveniences and cosmetics. Safety is never for sale: text and video chat with strangers,
            the gender, age and topic filters, reports and blocks stay free for everyone.
          </Trans>
        </p>

        {plans.isError && (
          <p role="alert" className="mt-6 rounded-xl bg-rose-50 p-4 text-rose-900 ring-1 ring-rose-200">
            {apiErrorMessage(plans.error, t`The plans could not be loaded.`)}
          </p>
        )}
        {plans.data && !configured && <NotConfiguredNotice />}
        {status.data && (
          <CurrentPlan
            status={status.data}
            onManage={() => void open((attemptId) => portal({ attemptId }))}
            busy={busy}
            configured={configured}
          />
        )}
        {error && (
          <p role="alert" className="mt-6 rounded-xl bg-rose-50 p-4 text-rose-900 ring-1 ring-rose-200">
            {error}
          </p>
        )}

        {configured && (
          <fieldset className="mt-8">
            <legend id={cycleLabel} className="text-sm font-semibold text-slate-900">
              <Trans>Billing cycle</Trans>
            </legend>
            <div className="mt-2 inline-flex rounded-full bg-white p-1 ring-1 ring-slate-300">
              {BILLING_CYCLES.map((c) => (
                <label
                  key={c}
                  className={`cursor-pointer rounded-full px-4 py-2 text-base font-medium has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-indigo-700 ${cycle === c ? 'bg-indigo-700 text-white' : 'text-slate-800'}`}
                >
                  <input type="radio" name="cycle" value={c} checked={cycle === c} onChange={() => setCycle(c)} className="sr-only" />
                  {c === 'monthly' ? t`Monthly` : t`Yearly`}
                </label>
              ))}
            </div>
          </fieldset>
        )}

        <ul className="mt-8 grid gap-6 md:grid-cols-3" aria-label={t`Tiers`}>
          {TIERS.map((tier) => {
            const price = tier === 'free tier' ? undefined : prices.find((p) => p.tier === tier && p.cycle === cycle);
            const isCurrent = tier === current;
            const name = tierName(tier);
            const amount = price ? formatPrice(price.amount, price.currency) : '';
            return (
              <li
                key={tier}
                className={`flex flex-col rounded-3xl bg-white p-6 ring-1 ${isCurrent ? 'ring-2 ring-indigo-700' : 'ring-slate-200'}`}
              >
                <h2 className="text-xl font-bold text-slate-950">{name}</h2>
                <p className="mt-1 text-2xl font-semibold text-slate-900">
                  {tier === 'free tier' ? t`Free` : price ? (cycle === 'monthly' ? t`${amount} / month` : t`${amount} / year`) : '—'}
                </p>
                {isCurrent && <p className="mt-2 text-sm font-semibold text-indigo-800">{t`Your plan`}</p>}
                <ul className="mt-4 grid flex-1 gap-2 text-base text-slate-700">
                  {perkLines(tier).map((line) => (
                    <li key={line.text} className="flex gap-2">
                      <span aria-hidden="true">✓</span>
                      <span>{line.text}</span>
                    </li>
                  ))}
                </ul>
                {tier !== 'free tier' && configured && current === 'free tier' && (
                  <button
                    type="button"
                    disabled={busy || !price}
                    className={`${primaryButton} mt-6`}
                    onClick={() => void open((attemptId) => checkout({ tier: tier as PremiumTier, cycle, attemptId }))}
                  >
                    {price ? t`Choose ${name}` : t`Not available right now`}
                  </button>
                )}
              </li>
            );
          })}
        </ul>
        <p className="mt-8 text-base text-slate-700">
          <Trans>
            Prefer a one-off gift?{' '}
            <Link to="/donate" className={`font-medium text-indigo-800 underline underline-offset-2 ${focusRing}`}>
              Make a donation
            </Link>
            .
          </Trans>
        </p>
      </div>
    </main>
  );
}

function CurrentPlan({
  status,
  onManage,
  busy,
  configured,
}: {
  status: BillingStatus;
  onManage: () => void;
  busy: boolean;
  configured: boolean;
}) {
  const username = useAppSelector((s) => s.profile.username);
  const { t, i18n } = useLingui();
  if (status.premiumUser === 'free tier' && !status.billingCycle) return null;
  const dateOf = (iso: string) => i18n.date(new Date(iso), { dateStyle: 'long' });
  const tier = tierName(status.premiumUser);
  // Dates in <time>: their words come from Intl in the interface language, not from the catalogs.
  const graceUntil = status.graceUntil ? <time dateTime={status.graceUntil}>{dateOf(status.graceUntil)}</time> : null;
  const periodEnd = status.periodEnd ? <time dateTime={status.periodEnd}>{dateOf(status.periodEnd)}</time> : null;
  return (
    <section aria-labelledby="current-plan" className="mt-6 rounded-2xl bg-white p-5 ring-1 ring-slate-200">
      <h2 id="current-plan" className="text-lg font-bold text-slate-950">
        {status.billingCycle === 'monthly'
          ? t`You are on ${tier}, billed monthly`
          : status.billingCycle === 'yearly'
            ? t`You are on ${tier}, billed yearly`
            : t`You are on ${tier}`}
      </h2>
      {status.graceUntil ? (
        <p className="mt-1 text-rose-900">
          <Trans>Your last payment failed. Your perks last until {graceUntil}; update your payment method to keep them.</Trans>
        </p>
      ) : status.cancelledSubscription && status.periodEnd ? (
        <p className="mt-1 text-slate-700">
          <Trans>Cancelled: your perks last until {periodEnd}. You can resume before then.</Trans>
        </p>
      ) : (
        status.periodEnd && (
          <p className="mt-1 text-slate-700">
            <Trans>Renews on {periodEnd}.</Trans>
          </p>
        )
      )}
      {configured && (
        <button
          type="button"
          disabled={busy}
          onClick={onManage}
          className={`mt-4 inline-flex rounded-lg px-4 py-2.5 font-semibold text-indigo-800 ring-1 ring-indigo-300 hover:bg-indigo-50 ${focusRing}`}
        >
          <Trans>Manage subscription</Trans>
        </button>
      )}
      {status.premiumUser !== 'free tier' && (
        <div className="mt-5 border-t border-slate-200 pt-4">
          <NameColourSetting status={status} username={username} />
        </div>
      )}
    </section>
  );
}
