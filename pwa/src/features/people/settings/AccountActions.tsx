import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { api } from '../../../store/api';
import { useAppDispatch } from '../../../store/hooks';
import { TextField } from '../../../components/ui/Field';
import { describeApiError } from '../../../lib/apiError';
import { toast } from '../../../lib/toast';
import { useDeleteAccountMutation, useExportDataMutation, useGetProfileQuery, useSignOutEverywhereMutation } from '../peopleApi';
import { dangerButton, secondaryButton } from '../components/Section';
import { Trans, useLingui } from '@lingui/react/macro';
import { ask } from '../../../components/ui/askDialog';

/** Sign out everywhere, download my data, delete my account. */
export function AccountActions() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const { data: profile } = useGetProfileQuery();
  const [signOutAll, signingOut] = useSignOutEverywhereMutation();
  const [exportData, exporting] = useExportDataMutation();
  const [remove, removing] = useDeleteAccountMutation();
  const [password, setPassword] = useState('');
  const [error, setError] = useState('');
  const { t } = useLingui();

  const leave = async (title: string, description: string) => {
    await dispatch(api.endpoints.logout.initiate());
    toast({ title, description });
    navigate('/login', { replace: true });
  };

  async function everywhere() {
    const r = await signOutAll();
    if ('error' in r) return toast({ title: t`Not signed out`, description: describeApiError(r.error), variant: 'error' });
    await leave(t`Signed out everywhere`, t`Every device, this one included, is signed out.`);
  }

  async function download() {
    const r = await exportData();
    if ('error' in r) return toast({ title: t`Download failed`, description: describeApiError(r.error), variant: 'error' });
    const url = URL.createObjectURL(new Blob([r.data], { type: 'application/json' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = 'parley-data.json';
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }

  async function deleteAccount(e: FormEvent) {
    e.preventDefault();
    if (!password) return setError(profile?.hasPassword === false ? t`Type your username to confirm.` : t`Enter your password to confirm.`);
    const sure = await ask({
      title: t`Delete your account for good? Your profile, friends and messages go, and this cannot be undone.`,
      confirmLabel: t`Delete my account`,
      danger: true,
    });
    if (!sure) return;
    const r = await remove(password);
    if ('error' in r) return setError(describeApiError(r.error));
    await leave(t`Account deleted`, t`Everything about you was removed. Your username is freed in 30 days.`);
  }

  return (
    <div className="grid gap-6">
      <div className="flex flex-wrap gap-2">
        <button type="button" className={secondaryButton} disabled={signingOut.isLoading} onClick={() => void everywhere()}>
          <Trans>Sign out everywhere</Trans>
        </button>
        <button type="button" className={secondaryButton} disabled={exporting.isLoading} onClick={() => void download()}>
          {exporting.isLoading ? t`Preparing…` : t`Download my data`}
        </button>
      </div>
      <form
        onSubmit={(e) => void deleteAccount(e)}
        className="grid max-w-md gap-3 rounded-xl border border-red-200 bg-red-50 p-4"
        noValidate
      >
        <h3 className="font-semibold text-red-900">
          <Trans>Delete my account</Trans>
        </h3>
        <p className="text-sm text-red-900">
          <Trans>
            Your profile, friends, notifications and pictures are removed and every device is signed out. Your username is held for 30 days,
            then freed.
          </Trans>
        </p>
        <TextField
          label={profile?.hasPassword === false ? t`Your username, to confirm` : t`Your password, to confirm`}
          type={profile?.hasPassword === false ? 'text' : 'password'}
          autoComplete={profile?.hasPassword === false ? 'off' : 'current-password'}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={error || undefined}
        />
        <div>
          <button type="submit" className={dangerButton} disabled={removing.isLoading}>
            {removing.isLoading ? t`Deleting…` : t`Delete my account`}
          </button>
        </div>
      </form>
    </div>
  );
}
