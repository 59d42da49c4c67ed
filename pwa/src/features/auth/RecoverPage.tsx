import { useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { AuthCard } from '../../components/ui/Card';
import { FormAlert, PasswordField, TextField } from '../../components/ui/Field';
import { focusRing, primaryButton } from '../../components/ui/buttonStyles';
import { DocumentTitle } from '../../components/DocumentTitle';
import { describeApiError } from '../../lib/apiError';
import { useRecoverMutation } from './factorsApi';
import { ProofOfWork, type ProofHandle } from './ProofOfWork';
import { Trans, useLingui } from '@lingui/react/macro';

/** /recover: a forgotten password reset with a recovery code; every device is signed out. */
export default function RecoverPage() {
  const [username, setUsername] = useState('');
  const [recoveryCode, setRecoveryCode] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState('');
  const [done, setDone] = useState(false);
  const [recover, recovering] = useRecoverMutation();
  const proof = useRef<ProofHandle>(null);
  const { t } = useLingui();

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    setError('');
    const altcha = await proof.current?.take();
    const r = await recover({ username, recoveryCode, password, ...(altcha ? { altcha } : {}) });
    if ('error' in r) {
      proof.current?.renew();
      return setError(describeApiError(r.error));
    }
    setDone(true);
  }

  return (
    <AuthCard>
      <DocumentTitle title={t`Reset your password · Parley`} />
      <h1 className="text-2xl font-bold text-slate-900">
        <Trans>Reset your password</Trans>
      </h1>
      {done ? (
        <div className="mt-4 grid gap-4" role="status">
          <p className="text-base text-slate-800">
            <Trans>Your password is changed and every device was signed out. That recovery code is used up.</Trans>
          </p>
          <Link to="/login" className={primaryButton}>
            <Trans>Sign in</Trans>
          </Link>
        </div>
      ) : (
        <>
          <p className="mt-2 text-base text-slate-700">
            <Trans>Use one of the recovery codes you saved to choose a new password.</Trans>
          </p>
          <FormAlert message={error} />
          <form onSubmit={(e) => void onSubmit(e)} className="mt-6 grid gap-4">
            <TextField
              label={t`Username`}
              name="username"
              autoComplete="username"
              required
              value={username}
              onChange={(e) => setUsername(e.target.value)}
            />
            <TextField
              label={t`Recovery code`}
              name="recovery-code"
              autoComplete="off"
              placeholder="xxxxx-xxxxx"
              required
              value={recoveryCode}
              onChange={(e) => setRecoveryCode(e.target.value)}
            />
            <PasswordField
              label={t`New password`}
              name="new-password"
              autoComplete="new-password"
              required
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
            <button type="submit" className={primaryButton} disabled={recovering.isLoading}>
              <Trans>Reset password</Trans>
            </button>
          </form>
          <div className="mt-4">
            <ProofOfWork ref={proof} />
          </div>
        </>
      )}
      <p className="mt-6 text-center text-sm text-slate-700">
        <Link to="/login" className={`font-semibold text-indigo-700 underline ${focusRing}`}>
          <Trans>Back to sign-in</Trans>
        </Link>
      </p>
    </AuthCard>
  );
}
