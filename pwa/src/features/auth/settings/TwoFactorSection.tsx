import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useLocation } from 'react-router-dom';
import type { TotpSetup } from '@parley/contract/factors';
import { TextField } from '../../../components/ui/Field';
import { Button } from '../../../components/ui/Button';
import { describeApiError } from '../../../lib/apiError';
import { toast } from '../../../lib/toast';
import {
  useGetFactorsQuery,
  usePasskeyTwoFactorMutation,
  useTotpConfirmMutation,
  useTotpSetupMutation,
  useTwoFactorOffMutation,
} from '../factorsApi';
import { RecoveryCodesShown } from './RecoveryCodesShown';
import { SettingsCard } from './SettingsCard';
import { Trans, useLingui } from '@lingui/react/macro';

/** A code as typed: digits (authenticator app) or a recovery code. */
const factorOf = (typed: string) => (/^\s*\d{3}\s?\d{3}\s*$/.test(typed) ? { code: typed } : { recoveryCode: typed });

/** Settings → Two-factor sign-in: an authenticator app (QR code or secret) or passkeys, asked after the password. */
export function TwoFactorSection() {
  const { data } = useGetFactorsQuery();
  const [setup, settingUp] = useTotpSetupMutation();
  const [confirm, confirming] = useTotpConfirmMutation();
  const [withPasskeys, turningOnWithPasskeys] = usePasskeyTwoFactorMutation();
  const [turnOff, turningOff] = useTwoFactorOffMutation();
  const [pending, setPending] = useState<TotpSetup | null>(null);
  const [code, setCode] = useState('');
  const [offCode, setOffCode] = useState('');
  const [error, setError] = useState('');
  const [codes, setCodes] = useState<string[] | null>(null);
  // Sent here from /moderation: staff work only with two-factor on; say so and bring the section into view.
  const required = (useLocation().state as { twoFactorRequired?: boolean } | null)?.twoFactorRequired === true;
  const card = useRef<HTMLDivElement>(null);
  const { t } = useLingui();
  useEffect(() => {
    if (required) card.current?.scrollIntoView({ block: 'start' });
  }, [required]);

  async function start() {
    setError('');
    const r = await setup();
    if ('error' in r) return setError(describeApiError(r.error));
    setPending(r.data);
  }

  async function finish(e: FormEvent) {
    e.preventDefault();
    setError('');
    const r = await confirm(code);
    if ('error' in r) return setError(describeApiError(r.error));
    setPending(null);
    setCode('');
    setCodes(r.data.codes);
    toast({ title: t`Two-factor sign-in is on` });
  }

  async function passkeysOn() {
    const r = await withPasskeys();
    if ('error' in r) return setError(describeApiError(r.error));
    setCodes(r.data.codes);
    toast({ title: t`Two-factor sign-in is on` });
  }

  async function off(e: FormEvent) {
    e.preventDefault();
    setError('');
    const r = await turnOff(factorOf(offCode));
    if ('error' in r) return setError(describeApiError(r.error));
    setOffCode('');
    toast({ title: t`Two-factor sign-in is off` });
  }

  return (
    <SettingsCard
      id="two-factor"
      title={t`Two-factor sign-in`}
      description={t`After your password, Parley asks for a code from an authenticator app or for a passkey, so a stolen password alone opens nothing.`}
    >
      <div ref={card} />
      {required && !data?.twoFactor && (
        <p role="alert" className="mb-3 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm font-semibold text-slate-900">
          <Trans>Moderators and admins must turn on two-factor sign-in before they can open the moderation tools.</Trans>
        </p>
      )}
      {codes && <RecoveryCodesShown codes={codes} onDone={() => setCodes(null)} />}
      {!data ? null : data.twoFactor ? (
        <div className="grid gap-3">
          <p className="text-sm font-semibold text-emerald-800" role="status">
            {data.totp ? t`Two-factor sign-in is on with an authenticator app.` : t`Two-factor sign-in is on with your passkeys.`}
          </p>
          <form onSubmit={(e) => void off(e)} className="grid gap-3 sm:grid-cols-[1fr_auto] sm:items-end">
            <TextField
              label={t`Code or recovery code to turn it off`}
              autoComplete="one-time-code"
              value={offCode}
              onChange={(e) => setOffCode(e.target.value)}
              error={error || undefined}
            />
            <Button type="submit" variant="secondary" disabled={turningOff.isLoading || !offCode.trim()}>
              <Trans>Turn off</Trans>
            </Button>
          </form>
        </div>
      ) : pending ? (
        <form onSubmit={(e) => void finish(e)} className="grid gap-3">
          <p className="text-sm text-slate-800">
            <Trans>Scan this code with your authenticator app, or type the secret into it.</Trans>
          </p>
          <img
            src={`data:image/svg+xml;utf8,${encodeURIComponent(pending.qrSvg)}`}
            alt={t`QR code for your authenticator app`}
            className="h-48 w-48 rounded-lg border border-slate-200 bg-white"
          />
          <p className="text-sm text-slate-800">
            <Trans>Secret:</Trans>{' '}
            <code className="font-mono break-all text-slate-900" data-testid="totp-secret">
              {pending.secret}
            </code>
          </p>
          <TextField
            label={t`Six-digit code from the app`}
            inputMode="numeric"
            autoComplete="one-time-code"
            value={code}
            onChange={(e) => setCode(e.target.value)}
            error={error || undefined}
          />
          <div className="flex flex-wrap gap-2">
            <Button type="submit" disabled={confirming.isLoading}>
              <Trans>Turn on</Trans>
            </Button>
            <Button variant="secondary" onClick={() => setPending(null)}>
              <Trans>Cancel</Trans>
            </Button>
          </div>
        </form>
      ) : (
        <div className="grid gap-3">
          <div className="flex flex-wrap gap-2">
            <Button onClick={() => void start()} disabled={settingUp.isLoading}>
              <Trans>Set up an authenticator app</Trans>
            </Button>
            {data.passkeys.length > 0 && (
              <Button variant="secondary" onClick={() => void passkeysOn()} disabled={turningOnWithPasskeys.isLoading}>
                <Trans>Use my passkeys as the second factor</Trans>
              </Button>
            )}
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
