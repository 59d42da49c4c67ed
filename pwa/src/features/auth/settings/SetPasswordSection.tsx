import { useState, type FormEvent } from 'react';
import { PasswordField } from '../../../components/FormField';
import { Button } from '../../../components/ui/Button';
import { describeApiError } from '../../../lib/apiError';
import { toast } from '../../../lib/toast';
import { useGetFactorsQuery, useSetPasswordMutation } from '../factorsApi';
import { SettingsCard } from './SettingsCard';
import { Trans, useLingui } from '@lingui/react/macro';

/** Settings → Password, for an account made with Google that has none yet. */
export function SetPasswordSection() {
  const { data } = useGetFactorsQuery();
  const [setPassword, saving] = useSetPasswordMutation();
  const [password, setValue] = useState('');
  const [error, setError] = useState('');
  const { t } = useLingui();
  if (!data || data.hasPassword) return null;

  async function save(e: FormEvent) {
    e.preventDefault();
    setError('');
    const r = await setPassword(password);
    if ('error' in r) return setError(describeApiError(r.error));
    setValue('');
    toast({ title: t`Password set`, description: t`You can sign in with your username and this password too.` });
  }

  return (
    <SettingsCard
      id="password"
      title={t`Password`}
      description={t`Your account signs in with Google. Add a password to sign in without it.`}
    >
      <form onSubmit={(e) => void save(e)} className="grid gap-3 sm:grid-cols-[1fr_auto] sm:items-end">
        <PasswordField
          label={t`New password`}
          autoComplete="new-password"
          value={password}
          onChange={(e) => setValue(e.target.value)}
          error={error || undefined}
        />
        <Button type="submit" disabled={saving.isLoading || password.length === 0}>
          <Trans>Set password</Trans>
        </Button>
      </form>
    </SettingsCard>
  );
}
