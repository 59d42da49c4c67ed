import { useState, type FormEvent } from 'react';
import { startAuthentication } from '@simplewebauthn/browser';
import type { SecondFactorMethod } from '@parley/contract/factors';
import { useAppDispatch } from '../../store/hooks';
import { AuthCard } from '../../components/ui/Card';
import { FormAlert, TextField } from '../../components/ui/Field';
import { primaryButton } from '../../components/ui/buttonStyles';
import { Button } from '../../components/ui/Button';
import { DocumentTitle } from '../../components/DocumentTitle';
import { describeApiError, errorBody } from '../../lib/apiError';
import { factorsApi } from './factorsApi';
import { passkeyErrorMessage } from './settings/passkeyErrors';
import { Trans, useLingui } from '@lingui/react/macro';

/**
 * The second step of a sign-in with two-factor on: a code from the authenticator app, the
 * account's passkey, or a recovery code. `onDone` runs once the session exists.
 */
export default function SecondFactorStep({
  pending,
  methods,
  onDone,
  onRestart,
}: {
  pending: string;
  methods: SecondFactorMethod[];
  onDone: () => void;
  onRestart: (message: string) => void;
}) {
  const dispatch = useAppDispatch();
  const [mode, setMode] = useState<'totp' | 'recovery'>(methods.includes('totp') ? 'totp' : 'recovery');
  const [value, setValue] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const { t } = useLingui();

  async function send(body: Parameters<typeof factorsApi.endpoints.secondFactor.initiate>[0]) {
    setBusy(true);
    setError('');
    const request = dispatch(factorsApi.endpoints.secondFactor.initiate(body));
    try {
      await request.unwrap();
      onDone();
    } catch (err) {
      // The note expired (or the browser changed): the sign-in starts again from the password.
      if (errorBody(err).code === 'second_factor_expired') return onRestart(describeApiError(err));
      setError(describeApiError(err));
    } finally {
      request.reset();
      setBusy(false);
    }
  }

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    await send(mode === 'totp' ? { pending, code: value } : { pending, recoveryCode: value });
  }

  async function withPasskey() {
    setError('');
    const options = dispatch(factorsApi.endpoints.secondFactorOptions.initiate(pending));
    try {
      const optionsJSON = await options.unwrap();
      const passkey = await startAuthentication({ optionsJSON }).catch((err: unknown) => {
        throw new Error(passkeyErrorMessage(err));
      });
      await send({ pending, passkey });
    } catch (err) {
      setError(err instanceof Error ? err.message : describeApiError(err));
    } finally {
      options.reset();
    }
  }

  return (
    <AuthCard>
      <DocumentTitle title={t`Two-factor sign-in · Parley`} />
      <h1 className="text-2xl font-bold text-slate-900">
        <Trans>Two-factor sign-in</Trans>
      </h1>
      <p className="mt-2 text-base text-slate-700">
        {mode === 'totp' ? t`Enter the six-digit code from your authenticator app.` : t`Enter one of your recovery codes.`}
      </p>
      <FormAlert message={error} />
      <form onSubmit={(e) => void onSubmit(e)} className="mt-6 grid gap-4">
        <TextField
          key={mode}
          label={mode === 'totp' ? t`Authentication code` : t`Recovery code`}
          name={mode === 'totp' ? 'code' : 'recovery-code'}
          autoComplete="one-time-code"
          inputMode={mode === 'totp' ? 'numeric' : 'text'}
          autoFocus
          required
          value={value}
          onChange={(e) => {
            setValue(e.target.value);
            setError('');
          }}
        />
        <button type="submit" className={primaryButton} disabled={busy}>
          <Trans>Verify</Trans>
        </button>
      </form>
      <div className="mt-4 grid gap-2">
        {methods.includes('passkey') && (
          <Button variant="secondary" onClick={() => void withPasskey()} disabled={busy}>
            <Trans>Use a passkey instead</Trans>
          </Button>
        )}
        {mode === 'totp' ? (
          <Button variant="ghost" onClick={() => (setMode('recovery'), setValue(''))}>
            <Trans>Use a recovery code</Trans>
          </Button>
        ) : (
          methods.includes('totp') && (
            <Button variant="ghost" onClick={() => (setMode('totp'), setValue(''))}>
              <Trans>Use the authenticator app</Trans>
            </Button>
          )
        )}
      </div>
    </AuthCard>
  );
}
