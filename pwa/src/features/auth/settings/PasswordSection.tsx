import { useState, type FormEvent } from 'react';
import { startAuthentication } from '@simplewebauthn/browser';
import type { FactorsOverview } from '@parley/contract/factors';
import { useAppDispatch } from '../../../store/hooks';
import { PasswordField, TextField } from '../../../components/ui/Field';
import { Button } from '../../../components/ui/Button';
import { describeApiError } from '../../../lib/apiError';
import { toast } from '../../../lib/toast';
import { factorsApi, useChangePasswordMutation, useGetFactorsQuery, type ChangePasswordRequest } from '../factorsApi';
import { passkeyErrorMessage } from './passkeyErrors';
import { SettingsCard } from './SettingsCard';
import { Trans, useLingui } from '@lingui/react/macro';

/** How the owner proves it is them before a new password: the current one or one second factor. */
type Proof = 'password' | 'totp' | 'recovery' | 'passkey';

function proofsOf(f: FactorsOverview): Proof[] {
  return [
    ...(f.hasPassword ? ['password' as const] : []),
    ...(f.totp ? ['totp' as const] : []),
    ...(f.recoveryCodesLeft > 0 ? ['recovery' as const] : []),
    ...(f.passkeys.length > 0 ? ['passkey' as const] : []),
  ];
}

/**
 * Settings → Password: a new password, after the current one or a second factor (so someone who
 * forgot it but has a passkey, or a Google account with two-factor, can set one). An account with
 * neither (made with Google) adds its first password on its session. Other devices are signed out.
 */
export function PasswordSection() {
  const { data } = useGetFactorsQuery();
  if (!data) return null;
  return <PasswordForm factors={data} />;
}

function PasswordForm({ factors }: { factors: FactorsOverview }) {
  const dispatch = useAppDispatch();
  const [change, changing] = useChangePasswordMutation();
  const proofs = proofsOf(factors);
  const [chosen, setChosen] = useState<Proof | undefined>(proofs[0]);
  const proof = chosen && proofs.includes(chosen) ? chosen : proofs[0];
  const [secret, setSecret] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const { t } = useLingui();

  function choose(next: Proof) {
    setChosen(next);
    setSecret('');
    setError('');
  }

  /** The proof as the server takes it; a passkey is asked for here, with the account's own passkeys. */
  async function proofBody(): Promise<Omit<ChangePasswordRequest, 'newPassword'>> {
    if (proof === 'password') return { currentPassword: secret };
    if (proof === 'totp') return { code: secret };
    if (proof === 'recovery') return { recoveryCode: secret };
    if (proof !== 'passkey') return {};
    const options = dispatch(factorsApi.endpoints.passkeyConfirmOptions.initiate());
    try {
      const optionsJSON = await options.unwrap();
      const passkey = await startAuthentication({ optionsJSON }).catch((err: unknown) => {
        throw new Error(passkeyErrorMessage(err));
      });
      return { passkey };
    } finally {
      options.reset();
    }
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    setError('');
    setBusy(true);
    try {
      const r = await change({ newPassword, ...(await proofBody()) });
      if ('error' in r) return setError(describeApiError(r.error));
      setSecret('');
      setNewPassword('');
      // Back to the first way: a first password just set is the one asked next time.
      setChosen(undefined);
      toast({
        title: factors.hasPassword ? t`Password changed` : t`Password set`,
        description: t`Your other devices were signed out.`,
      });
    } catch (err) {
      setError(err instanceof Error ? err.message : describeApiError(err));
    } finally {
      setBusy(false);
    }
  }

  const switches: { to: Proof; label: string }[] = [
    { to: 'password', label: t`Use my current password` },
    { to: 'totp', label: t`Use the authenticator app` },
    { to: 'recovery', label: t`Use a recovery code` },
    { to: 'passkey', label: t`Use a passkey instead` },
  ];

  return (
    <SettingsCard
      id="password"
      title={t`Password`}
      description={factors.hasPassword ? undefined : t`Your account signs in with Google. Add a password to sign in without it.`}
    >
      <form onSubmit={(e) => void submit(e)} className="grid max-w-md gap-4" noValidate>
        {proof === 'password' && (
          <PasswordField
            key="password"
            label={t`Current password`}
            autoComplete="current-password"
            value={secret}
            onChange={(e) => setSecret(e.target.value)}
          />
        )}
        {proof === 'totp' && (
          <TextField
            key="totp"
            label={t`Authentication code`}
            inputMode="numeric"
            autoComplete="one-time-code"
            value={secret}
            onChange={(e) => setSecret(e.target.value)}
          />
        )}
        {proof === 'recovery' && (
          <TextField
            key="recovery"
            label={t`Recovery code`}
            autoComplete="off"
            value={secret}
            onChange={(e) => setSecret(e.target.value)}
          />
        )}
        {proof === 'passkey' && (
          <p className="text-sm text-slate-800">
            <Trans>Your browser asks for one of your passkeys when you save the new password.</Trans>
          </p>
        )}
        <PasswordField
          label={t`New password`}
          autoComplete="new-password"
          value={newPassword}
          onChange={(e) => setNewPassword(e.target.value)}
          hint={t`At least 8 characters. Your other devices will be signed out.`}
        />
        {error && (
          <p role="alert" className="text-sm text-red-700">
            {error}
          </p>
        )}
        <div className="flex flex-wrap gap-2">
          <Button type="submit" disabled={busy || changing.isLoading || newPassword.length === 0}>
            {factors.hasPassword ? <Trans>Change password</Trans> : <Trans>Set password</Trans>}
          </Button>
        </div>
        {proofs.length > 1 && (
          <div className="flex flex-wrap gap-2">
            {switches
              .filter((s) => s.to !== proof && proofs.includes(s.to))
              .map((s) => (
                <Button key={s.to} variant="ghost" onClick={() => choose(s.to)}>
                  {s.label}
                </Button>
              ))}
          </div>
        )}
      </form>
    </SettingsCard>
  );
}
