import { useState, type FormEvent } from 'react';
import { changePasswordSchema } from '@parley/contract/people';
import { TextField, primaryButton } from '../../../components/FormField';
import { describeApiError } from '../../../lib/apiError';
import { toast } from '../../../lib/toast';
import { useChangePasswordMutation } from '../peopleApi';
import { useLingui } from '@lingui/react/macro';

/** A new password needs the current one; the other devices are signed out afterwards. */
export function PasswordForm() {
  const [change, { isLoading }] = useChangePasswordMutation();
  const [currentPassword, setCurrent] = useState('');
  const [newPassword, setNew] = useState('');
  const [error, setError] = useState('');
  const { t } = useLingui();

  async function submit(e: FormEvent) {
    e.preventDefault();
    const parsed = changePasswordSchema.safeParse({ currentPassword, newPassword });
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? t`Check the form.`);
    const result = await change(parsed.data);
    if ('error' in result) return setError(describeApiError(result.error));
    setError('');
    setCurrent('');
    setNew('');
    toast({ title: t`Password changed`, description: t`Your other devices were signed out.` });
  }

  return (
    <form onSubmit={(e) => void submit(e)} className="grid max-w-md gap-4" noValidate>
      <TextField
        label={t`Current password`}
        type="password"
        autoComplete="current-password"
        value={currentPassword}
        onChange={(e) => setCurrent(e.target.value)}
      />
      <TextField
        label={t`New password`}
        type="password"
        autoComplete="new-password"
        value={newPassword}
        onChange={(e) => setNew(e.target.value)}
        hint={t`At least 8 characters. Your other devices will be signed out.`}
      />
      {error && (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
      <button type="submit" className={primaryButton} disabled={isLoading}>
        {isLoading ? t`Changing…` : t`Change password`}
      </button>
    </form>
  );
}
