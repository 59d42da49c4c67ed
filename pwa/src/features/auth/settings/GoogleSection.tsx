import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useLingui } from '@lingui/react/macro';
import type { FactorsOverview } from '@parley/contract/factors';
import { useServerOffersQuery } from '../../../store/api';
import { Button } from '../../../components/ui/Button';
import { ask } from '../../../components/ui/askDialog';
import { describeApiError, errorBody } from '../../../lib/apiError';
import { toast } from '../../../lib/toast';
import { useGetFactorsQuery, useStartGoogleLinkMutation, useUnlinkGoogleMutation } from '../factorsApi';
import { GoogleIcon } from '../GoogleIcon';
import { SettingsCard } from './SettingsCard';

/**
 * Settings → Google: link Google sign-in to this account (a round trip to Google that comes back
 * here with `?google=…`), see which Google account is linked, and unlink it while a password or a
 * passkey still lets the owner in. Hidden on a server without Google sign-in, unless one is linked.
 */
export function GoogleSection() {
  const { data: factors } = useGetFactorsQuery();
  const { data: offers } = useServerOffersQuery();
  if (!factors || !offers) return null;
  if (!offers.google && !factors.google) return null;
  return <GoogleCard factors={factors} available={offers.google} />;
}

export function GoogleCard({ factors, available }: { factors: FactorsOverview; available: boolean }) {
  const { t } = useLingui();
  const [params, setParams] = useSearchParams();
  const [start, starting] = useStartGoogleLinkMutation();
  const [unlink, unlinking] = useUnlinkGoogleMutation();
  const [error, setError] = useState('');
  const otherWayIn = factors.hasPassword || factors.passkeys.length > 0;

  /** The server's refusals, by code, in the interface language. */
  const refusal = (code: string | undefined): string | undefined =>
    ({
      google_linked_elsewhere: t`That Google account already signs in to another Parley account. Nothing was changed.`,
      google_already_linked: t`This account is already linked to a Google account. Unlink it first.`,
      google_link_signed_out: t`Your sign-in ended before Google answered. Sign in again and link Google from here.`,
      google_link_failed: t`Google did not confirm the link. Nothing was changed; try again.`,
      google_only_way_in: t`Google is the only way into this account. Add a password or a passkey before unlinking it.`,
      google_not_configured: t`Google sign-in is not configured on this server.`,
    })[code ?? ''];

  // Back from Google: how it went is read once, then the marker leaves the address.
  const [returned, setReturned] = useState(() => params.get('google'));
  useEffect(() => {
    if (!returned) return;
    if (returned === 'linked') toast({ title: t`Google linked`, description: t`You can sign in with Google from now on.` });
    const next = new URLSearchParams(params);
    next.delete('google');
    setParams(next, { replace: true });
    // Once per arrival: the marker is gone after the first run.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [returned]);
  const shown = error || (returned && returned !== 'linked' ? (refusal(returned) ?? refusal('google_link_failed')) : '');

  async function link() {
    setError('');
    setReturned(null);
    const r = await start();
    if ('error' in r) return setError(refusal(errorBody(r.error).code) ?? describeApiError(r.error));
    window.location.assign(r.data.url);
  }

  async function drop() {
    const sure = await ask({
      title: t`Unlink Google? You will no longer sign in to this account with it.`,
      confirmLabel: t`Unlink`,
      danger: true,
    });
    if (!sure) return;
    setError('');
    setReturned(null);
    const r = await unlink();
    if ('error' in r) return setError(refusal(errorBody(r.error).code) ?? describeApiError(r.error));
    toast({ title: t`Google unlinked` });
  }

  const linked = factors.google;
  const email = linked?.email;
  return (
    <SettingsCard id="google" title={t`Google sign-in`} description={t`Sign in to this account with your Google account too.`}>
      {linked ? (
        <div className="grid gap-3">
          <p className="flex items-center gap-2 text-sm text-slate-800">
            <GoogleIcon />
            <span>{email ? t`Linked to ${email}` : t`Linked to a Google account`}</span>
          </p>
          {!available && <p className="text-sm text-slate-700">{t`Google sign-in is not configured on this server.`}</p>}
          {!otherWayIn && (
            <p className="text-sm text-slate-700">{t`Google is the only way into this account. Add a password or a passkey before unlinking it.`}</p>
          )}
          <div>
            <Button variant="secondary" disabled={!otherWayIn || !available || unlinking.isLoading} onClick={() => void drop()}>
              {t`Unlink Google`}
            </Button>
          </div>
        </div>
      ) : (
        <Button onClick={() => void link()} disabled={starting.isLoading}>
          <GoogleIcon />
          {t`Link Google`}
        </Button>
      )}
      {shown && (
        <p role="alert" className="mt-3 text-sm text-red-700">
          {shown}
        </p>
      )}
    </SettingsCard>
  );
}
