import { useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { resetRequestSchema } from '@parley/contract/accounts';
import { AuthCard } from '../../components/ui/Card';
import { FormAlert, TextField } from '../../components/ui/Field';
import { focusRing, primaryButton } from '../../components/ui/buttonStyles';
import { DocumentTitle } from '../../components/DocumentTitle';
import { describeApiError } from '../../lib/apiError';
import { useRequestPasswordResetMutation } from './accountsApi';
import { ProofOfWork, type ProofHandle } from './ProofOfWork';
import { useEmailAvailable } from './useEmailAvailable';
import { Trans, useLingui } from '@lingui/react/macro';

/** /forgot-password: a reset link by email, for an account with a confirmed address. */
export default function ForgotPasswordPage() {
  const [login, setLogin] = useState('');
  const [error, setError] = useState('');
  const [sent, setSent] = useState<string | null>(null);
  const proof = useRef<ProofHandle>(null);
  const [request, { isLoading }] = useRequestPasswordResetMutation();
  const email = useEmailAvailable();
  const { t } = useLingui();

  async function submit(e: FormEvent) {
    e.preventDefault();
    const altcha = await proof.current?.take();
    const parsed = resetRequestSchema.safeParse({ login, ...(altcha ? { altcha } : {}) });
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? t`Check the form.`);
    const result = await request(parsed.data);
    if ('error' in result) {
      proof.current?.renew();
      return setError(describeApiError(result.error));
    }
    setSent(result.data.message);
  }

  return (
    <AuthCard>
      <DocumentTitle title={t`Forgot password · Parley`} />
      <h1 className="text-2xl font-bold text-slate-900">
        <Trans>Forgot your password?</Trans>
      </h1>
      {email === false ? (
        <p className="mt-4 text-base text-slate-800">
          <Trans>This server cannot send email, so email features are off. Ask the people who run this server for help.</Trans>
        </p>
      ) : sent ? (
        <p role="status" className="mt-4 text-base text-slate-800">
          {sent}
        </p>
      ) : (
        <>
          <p className="mt-2 text-sm text-slate-700">
            <Trans>
              Enter your username or the email you confirmed. If it belongs to an account, we email it a link to choose a new password.
            </Trans>
          </p>
          <FormAlert message={error} />
          <form onSubmit={(e) => void submit(e)} className="mt-4 grid gap-4" noValidate>
            <TextField
              label={t`Username or email`}
              name="login"
              autoComplete="username"
              required
              value={login}
              onChange={(e) => {
                setLogin(e.target.value);
                setError('');
              }}
            />
            <button type="submit" className={primaryButton} disabled={isLoading}>
              {isLoading ? t`Sending…` : t`Send reset link`}
            </button>
          </form>
          <div className="mt-4">
            <ProofOfWork ref={proof} />
          </div>
        </>
      )}
      <p className="mt-6 text-center text-sm text-slate-700">
        <Link to="/login" className={`font-semibold text-indigo-700 underline ${focusRing}`}>
          <Trans>Back to Login</Trans>
        </Link>
      </p>
    </AuthCard>
  );
}
