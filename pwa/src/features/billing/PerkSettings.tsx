import { useId, useState } from 'react';
import { useAppSelector } from '../../store/hooks';
import { describeApiError } from '../../lib/apiError';
import { focusRing } from '../../components/ui/buttonStyles';
import { useBillingStatusQuery, useWithdrawPublicThanksMutation } from './billingApi';
import { NameColourSetting } from './NameColourSetting';
import { Trans, useLingui } from '@lingui/react/macro';

const secondaryButton = `inline-flex items-center justify-center rounded-lg border border-slate-400 bg-white px-3 py-2 text-sm font-semibold text-slate-800 hover:bg-slate-100 disabled:opacity-60 ${focusRing}`;

/** Settings of premium and donations: the name colour, and a donor's public thank-you (which they may remove). */
export default function PerkSettings() {
  const { data: status } = useBillingStatusQuery();
  const username = useAppSelector((s) => s.profile.username);
  const [withdraw, withdrawing] = useWithdrawPublicThanksMutation();
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  const { t } = useLingui();
  if (!status) return null;
  return (
    <section aria-labelledby={id} className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
      <h2 id={id} className="text-lg font-bold text-slate-900">
        <Trans>Premium and donations</Trans>
      </h2>
      <div className="mt-4 grid gap-4">
        <NameColourSetting status={status} username={username} />
        {status.thankedDonor && (
          <div>
            <p className="text-sm text-slate-700">
              <Trans>Your profile thanks you in public for your donation.</Trans>
            </p>
            <button
              type="button"
              className={`${secondaryButton} mt-2`}
              disabled={withdrawing.isLoading}
              onClick={() =>
                void withdraw().then((r) =>
                  setError('error' in r ? describeApiError(r.error, t`The thank-you could not be removed.`) : null),
                )
              }
            >
              <Trans>Remove my public thank-you</Trans>
            </button>
            {error && (
              <p role="alert" className="mt-1 text-sm text-red-700">
                {error}
              </p>
            )}
          </div>
        )}
      </div>
    </section>
  );
}
