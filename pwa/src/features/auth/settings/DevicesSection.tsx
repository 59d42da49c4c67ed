import { useState } from 'react';
import type { SignInView } from '@parley/contract/accounts';
import { Button } from '../../../components/ui/Button';
import { Section } from '../../../components/ui/Section';
import { describeApiError } from '../../../lib/apiError';
import { toast } from '../../../lib/toast';
import { useGetSignInsQuery, useSignOutOtherSignInsMutation, useSignOutSignInMutation } from '../accountsApi';
import { countryName } from '../../../lib/countries';
import { Trans, useLingui } from '@lingui/react/macro';

const dateTime = { dateStyle: 'medium', timeStyle: 'short' } as const;

/** Settings › Signed-in devices: every sign-in of the account, each with its own "Sign out". */
export default function DevicesSection() {
  const { data: signIns, error: loadError, isLoading } = useGetSignInsQuery();
  const [signOut, signingOut] = useSignOutSignInMutation();
  const [signOutOthers, signingOutOthers] = useSignOutOtherSignInsMutation();
  const [error, setError] = useState('');
  const others = signIns?.filter((s) => !s.current) ?? [];
  const { t, i18n } = useLingui();
  // In the interface's language, as every other text of the section.
  const when = (iso: string) => i18n.date(new Date(iso), dateTime);
  // The server names a device as its deviceName does ("Chrome on Android", "A browser on iPhone",
  // "An unknown device"): said here in the interface language, the product names kept.
  const deviceLabel = (device: string) => {
    const someBrowser = /^A browser on (.+)$/.exec(device);
    if (someBrowser) {
      const system = someBrowser[1];
      return t`A browser on ${system}`;
    }
    const named = /^(.+) on (.+)$/.exec(device);
    if (named) {
      const [, browser, system] = named;
      return t`${browser} on ${system}`;
    }
    return device === 'An unknown device' ? t`An unknown device` : device;
  };

  const end = async (s: SignInView) => {
    const r = await signOut(s.id);
    if ('error' in r) return setError(describeApiError(r.error));
    setError('');
    const device = deviceLabel(s.device);
    toast({ title: t`Signed out`, description: t`${device} is signed out.` });
  };

  return (
    <Section
      title={t`Signed-in devices`}
      description={t`Where your account is signed in. Sign out any you do not recognise, then change your password.`}
    >
      {isLoading ? (
        <p role="status">
          <Trans>Loading Content...</Trans>
        </p>
      ) : loadError ? (
        <p role="alert" className="text-sm text-red-700">
          {describeApiError(loadError, t`Your devices could not be loaded.`)}
        </p>
      ) : (
        <div className="grid gap-3">
          <ul className="grid gap-2" aria-label={t`Signed-in devices`}>
            {signIns?.map((s) => (
              <li key={s.id} className="flex flex-wrap items-center justify-between gap-2 rounded-lg border border-slate-200 p-3">
                <div className="min-w-0">
                  <p className="font-semibold text-slate-900">
                    {deviceLabel(s.device)}
                    {s.country && <span className="font-normal text-slate-700"> · {countryName(s.country)}</span>}
                    {s.current && (
                      <span className="ml-2 rounded bg-indigo-50 px-1.5 py-0.5 text-xs font-semibold text-indigo-800">
                        <Trans>This device</Trans>
                      </span>
                    )}
                  </p>
                  <p className="text-sm text-slate-700">
                    {/* Dates in <time>: formatted by the browser for the interface language, not catalog text. */}
                    <Trans>
                      Signed in <time dateTime={s.firstSeen}>{when(s.firstSeen)}</time> · last active{' '}
                      <time dateTime={s.lastSeen}>{when(s.lastSeen)}</time>
                    </Trans>
                  </p>
                </div>
                {!s.current && (
                  <Button
                    variant="secondary"
                    size="sm"
                    disabled={signingOut.isLoading}
                    aria-label={t`Sign out ${deviceLabel(s.device)}, signed in ${when(s.firstSeen)}`}
                    onClick={() => void end(s)}
                  >
                    <Trans>Sign out</Trans>
                  </Button>
                )}
              </li>
            ))}
          </ul>
          {error && (
            <p role="alert" className="text-sm text-red-700">
              {error}
            </p>
          )}
          {others.length > 0 && (
            <div>
              <Button
                variant="secondary"
                disabled={signingOutOthers.isLoading}
                onClick={() =>
                  void signOutOthers().then((r) =>
                    'error' in r
                      ? setError(describeApiError(r.error))
                      : toast({ title: t`Signed out everywhere else`, description: t`Only this device is still signed in.` }),
                  )
                }
              >
                <Trans>Sign out everywhere else</Trans>
              </Button>
            </div>
          )}
        </div>
      )}
    </Section>
  );
}
