import { useState, type FormEvent } from 'react';
import { browserSupportsWebAuthn, startRegistration } from '@simplewebauthn/browser';
import { TextField } from '../../../components/FormField';
import { Button } from '../../../components/ui/Button';
import { describeApiError } from '../../../lib/apiError';
import { toast } from '../../../lib/toast';
import {
  useGetFactorsQuery,
  usePasskeyRegistrationOptionsMutation,
  useRegisterPasskeyMutation,
  useRemovePasskeyMutation,
} from '../factorsApi';
import { SettingsCard } from './SettingsCard';
import { passkeyErrorMessage } from './passkeyErrors';
import { Trans, useLingui } from '@lingui/react/macro';

const dateFormat = { year: 'numeric', month: 'short', day: 'numeric' } as const;

/** Settings → Passkeys: sign in with the device's lock instead of a password; one or more, named. */
export function PasskeysSection() {
  const { data } = useGetFactorsQuery();
  const [options] = usePasskeyRegistrationOptionsMutation();
  const [register, registering] = useRegisterPasskeyMutation();
  const [remove] = useRemovePasskeyMutation();
  const [name, setName] = useState('');
  const [error, setError] = useState('');
  const supported = browserSupportsWebAuthn();
  const { t, i18n } = useLingui();
  const dateOf = (iso: string) => i18n.date(new Date(iso), dateFormat);

  async function add(e: FormEvent) {
    e.preventDefault();
    setError('');
    const o = await options();
    if ('error' in o) return setError(describeApiError(o.error));
    let response;
    try {
      response = await startRegistration({ optionsJSON: o.data });
    } catch (err) {
      return setError(passkeyErrorMessage(err));
    }
    const r = await register({ name: name.trim() || t`Passkey`, response });
    if ('error' in r) return setError(describeApiError(r.error));
    setName('');
    toast({ title: t`Passkey added`, description: t`You can sign in with it from now on.` });
  }

  async function drop(id: string, keyName: string) {
    if (!window.confirm(t`Remove the passkey “${keyName}”? It will no longer sign you in.`)) return;
    const r = await remove(id);
    if ('error' in r) toast({ title: t`Not removed`, description: describeApiError(r.error), variant: 'error' });
  }

  return (
    <SettingsCard
      id="passkeys"
      title={t`Passkeys`}
      description={t`Sign in with your fingerprint, face or screen lock instead of a password. Works on phones and computers.`}
    >
      {data && data.passkeys.length > 0 ? (
        <ul className="mb-4 grid gap-2">
          {data.passkeys.map((k) => (
            <li key={k.id} className="flex flex-wrap items-center justify-between gap-2 rounded-lg border border-slate-200 p-3">
              <div>
                <p className="font-semibold text-slate-900">{k.name}</p>
                <p className="text-sm text-slate-700">
                  {k.lastUsedAt ? (
                    <Trans>
                      Added <time dateTime={k.createdAt}>{dateOf(k.createdAt)}</time> · last used{' '}
                      <time dateTime={k.lastUsedAt}>{dateOf(k.lastUsedAt)}</time>
                    </Trans>
                  ) : (
                    <Trans>
                      Added <time dateTime={k.createdAt}>{dateOf(k.createdAt)}</time> · not used yet
                    </Trans>
                  )}
                </p>
              </div>
              <Button variant="secondary" size="sm" aria-label={t`Remove passkey ${k.name}`} onClick={() => void drop(k.id, k.name)}>
                <Trans>Remove</Trans>
              </Button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="mb-4 text-sm text-slate-700">
          <Trans>No passkeys yet.</Trans>
        </p>
      )}
      {supported ? (
        <form onSubmit={(e) => void add(e)} className="grid gap-3 sm:grid-cols-[1fr_auto] sm:items-end">
          <TextField
            label={t`Passkey name`}
            placeholder={t`e.g. My phone`}
            maxLength={60}
            value={name}
            onChange={(e) => setName(e.target.value)}
            error={error || undefined}
          />
          <Button type="submit" disabled={registering.isLoading}>
            <Trans>Add a passkey</Trans>
          </Button>
        </form>
      ) : (
        <p className="text-sm text-slate-700">
          <Trans>This browser cannot use passkeys.</Trans>
        </p>
      )}
    </SettingsCard>
  );
}
