import { useState, type FormEvent } from 'react';
import { useStripeRedirect } from './useStripeRedirect';
import { DONATION_MAX, DONATION_MIN } from '@parley/contract/billing';
import { DocumentTitle } from '../../components/DocumentTitle';
import { TextField } from '../../components/ui/Field';
import { primaryButton } from '../../components/ui/buttonStyles';
import { formatWhole, useBillingPlansQuery, useStartDonationMutation } from './billingApi';
import { NotConfiguredNotice } from './NotConfiguredNotice';
import { Trans, useLingui } from '@lingui/react/macro';

const PRESETS = [3, 5, 10, 25];

/** /donate: a one-off gift of a chosen amount through Stripe Checkout. */
export default function DonatePage() {
  const plans = useBillingPlansQuery();
  const [donate, { isLoading }] = useStartDonationMutation();
  const [preset, setPreset] = useState<number | 'other'>(5);
  const [other, setOther] = useState('');
  const [publicThanks, setPublicThanks] = useState(false);
  const { error, setError, open } = useStripeRedirect();
  const { t } = useLingui();
  const min = DONATION_MIN;
  const max = DONATION_MAX;
  const configured = plans.data?.configured === true;
  const currency = plans.data?.configured ? plans.data.donationCurrency : 'usd';
  const code = currency.toUpperCase();

  async function submit(e: FormEvent) {
    e.preventDefault();
    const amount = preset === 'other' ? Number(other) : preset;
    if (!Number.isInteger(amount) || amount < DONATION_MIN || amount > DONATION_MAX) {
      setError(t`Choose a whole amount from ${min} to ${max}.`);
      return;
    }
    await open((attemptId) => donate({ amount, publicThanks, attemptId }));
  }

  return (
    <main id="main" className="min-h-frame bg-slate-50">
      <DocumentTitle title={t`Donate · Parley`} />
      <div className="mx-auto max-w-xl px-4 py-10 sm:px-6 md:py-14">
        <h1 className="text-3xl font-bold tracking-tight text-slate-950 sm:text-4xl">
          <Trans>Support Parley</Trans>
        </h1>
        <p className="mt-3 text-lg text-slate-700">
          <Trans>A one-off donation pays for servers and moderators. It buys nothing and changes nothing in how you are matched.</Trans>
        </p>
        {plans.data && !configured && <NotConfiguredNotice />}
        {configured && (
          <form noValidate onSubmit={submit} className="mt-8 grid gap-5 rounded-3xl bg-white p-6 ring-1 ring-slate-200">
            <fieldset>
              <legend className="text-base font-semibold text-slate-900">
                <Trans>Amount</Trans>
              </legend>
              <div className="mt-3 grid grid-cols-3 gap-2 sm:grid-cols-5">
                {[...PRESETS, 'other' as const].map((p) => (
                  <label
                    key={p}
                    className={`flex min-h-12 cursor-pointer items-center justify-center rounded-xl px-3 text-base font-semibold ring-1 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-indigo-700 ${preset === p ? 'bg-indigo-700 text-white ring-indigo-700' : 'bg-white text-slate-900 ring-slate-300'}`}
                  >
                    <input type="radio" name="amount" className="sr-only" checked={preset === p} onChange={() => setPreset(p)} />
                    {p === 'other' ? t`Other` : formatWhole(p, currency)}
                  </label>
                ))}
              </div>
            </fieldset>
            {preset === 'other' && (
              <TextField
                label={t`Amount (${code})`}
                name="other"
                inputMode="numeric"
                value={other}
                hint={t`A whole amount from ${min} to ${max}.`}
                onChange={(e) => setOther(e.target.value.replace(/\D/g, ''))}
              />
            )}
            <label className="flex items-start gap-3 text-base text-slate-800">
              <input type="checkbox" className="mt-1 size-5" checked={publicThanks} onChange={(e) => setPublicThanks(e.target.checked)} />
              <Trans>Thank me in public on my profile</Trans>
            </label>
            {error && (
              <p role="alert" className="rounded-xl bg-rose-50 p-3 text-rose-900 ring-1 ring-rose-200">
                {error}
              </p>
            )}
            <button type="submit" disabled={isLoading} className={primaryButton}>
              <Trans>Donate with Stripe</Trans>
            </button>
          </form>
        )}
      </div>
    </main>
  );
}
