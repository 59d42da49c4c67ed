import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { linkTokenSchema } from '@parley/contract/accounts';
import { passwordSchema } from '@parley/contract/auth';
import { AuthCard } from '../../components/ui/Card';
import { FormAlert, PasswordField } from '../../components/ui/Field';
import { focusRing, primaryButton } from '../../components/ui/buttonStyles';
import { DocumentTitle } from '../../components/DocumentTitle';
import { describeApiError } from '../../lib/apiError';
import { useConfirmPasswordResetMutation } from './accountsApi';
import { Trans, useLingui } from '@lingui/react/macro';

/** /reset-password?token=…: the emailed link; a new password, then every device is signed out. */
export default function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = linkTokenSchema.safeParse(params.get('token'));
  const [password, setPassword] = useState('');
  const [error, setError] = useState('');
  const [done, setDone] = useState(false);
  const [confirm, { isLoading }] = useConfirmPasswordResetMutation();
  const { t } = useLingui();

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!token.success) return;
    const parsed = passwordSchema.safeParse(password);
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? t`Check the password.`);
    const result = await confirm({ token: token.data, password: parsed.data });
    if ('error' in result) return setError(describeApiError(result.error));
    setPassword('');
    setDone(true);
  }

  return (
    <AuthCard>
      <DocumentTitle title={t`Choose a new password · Parley`} />
      <h1 className="text-2xl font-bold text-slate-900">
        <Trans>Choose a new password</Trans>
      </h1>
      {!token.success ? (
        <p role="alert" className="mt-4 text-base text-red-700">
          <Trans>
            This link is incomplete. Open the link from the email again, or{' '}
            <Link to="/forgot-password" className={`font-semibold underline ${focusRing}`}>
              ask for a new one
            </Link>
            .
          </Trans>
        </p>
      ) : done ? (
        <div className="mt-4 grid gap-4">
          <p role="status" className="text-base text-slate-800">
            <Trans>Your password is changed, and every device was signed out. Sign in with the new password.</Trans>
          </p>
          <Link to="/login" className={primaryButton}>
            <Trans>Go to Login</Trans>
          </Link>
        </div>
      ) : (
        <>
          <FormAlert message={error} />
          <form onSubmit={(e) => void submit(e)} className="mt-4 grid gap-4" noValidate>
            <PasswordField
              label={t`New password`}
              name="password"
              autoComplete="new-password"
              hint={t`At least 8 characters. Every device signed in to your account will be signed out.`}
              value={password}
              onChange={(e) => {
                setPassword(e.target.value);
                setError('');
              }}
            />
            <button type="submit" className={primaryButton} disabled={isLoading}>
              {isLoading ? t`Saving…` : t`Save new password`}
            </button>
          </form>
        </>
      )}
    </AuthCard>
  );
}
