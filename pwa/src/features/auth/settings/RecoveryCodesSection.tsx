import { useState } from 'react';
import { Button } from '../../../components/ui/Button';
import { ask } from '../../../components/ui/askDialog';
import { describeApiError } from '../../../lib/apiError';
import { useGetFactorsQuery, useRegenerateRecoveryCodesMutation } from '../factorsApi';
import { RecoveryCodesShown } from './RecoveryCodesShown';
import { SettingsCard } from './SettingsCard';
import { useLingui } from '@lingui/react/macro';

/** Settings → Recovery codes: for everyone, the way back in without email; a new set voids the old. */
export function RecoveryCodesSection() {
  const { data } = useGetFactorsQuery();
  const [regenerate, regenerating] = useRegenerateRecoveryCodesMutation();
  const [codes, setCodes] = useState<string[] | null>(null);
  const [error, setError] = useState('');
  const { t } = useLingui();
  const left = data?.recoveryCodesLeft ?? 0;

  async function make() {
    if (
      data?.recoveryCodesLeft &&
      !(await ask({ title: t`Make new recovery codes? Your old codes stop working.`, confirmLabel: t`Make new recovery codes` }))
    )
      return;
    setError('');
    const r = await regenerate();
    if ('error' in r) return setError(describeApiError(r.error));
    setCodes(r.data.codes);
  }

  return (
    <SettingsCard
      id="recovery-codes"
      title={t`Recovery codes`}
      description={t`One-time codes that reset a forgotten password or stand in for your second factor. Keep them somewhere safe.`}
    >
      {codes ? (
        <RecoveryCodesShown codes={codes} onDone={() => setCodes(null)} />
      ) : (
        <div className="grid gap-3">
          {data && <p className="text-sm text-slate-800">{left > 0 ? t`${left} unused codes left.` : t`You have no recovery codes.`}</p>}
          <div>
            <Button
              variant={data?.recoveryCodesLeft ? 'secondary' : 'primary'}
              onClick={() => void make()}
              disabled={regenerating.isLoading}
            >
              {data?.recoveryCodesLeft ? t`Make new recovery codes` : t`Get recovery codes`}
            </Button>
          </div>
          {error && (
            <p role="alert" className="text-sm text-red-700">
              {error}
            </p>
          )}
        </div>
      )}
    </SettingsCard>
  );
}
