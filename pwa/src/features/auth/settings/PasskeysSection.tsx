import { useState, type FormEvent } from 'react';
import { browserSupportsWebAuthn, startRegistration } from '@simplewebauthn/browser';
import { TextField } from '../../../components/ui/Field';
import { Button } from '../../../components/ui/Button';
import { ask } from '../../../components/ui/askDialog';
import { describeApiError } from '../../../lib/apiError';
import { toast } from '../../../lib/toast';
import {
  useGetFactorsQuery,
  usePasskeyRegistrationOptionsMutation,
  useRegisterPasskeyMutation,
  useRemovePasskeyMutation,
  useRenamePasskeyMutation,
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
  const [rename, renaming] = useRenamePasskeyMutation();
  /** The passkey whose name is being edited, and the name typed so far. */
  const [editing, setEditing] = useState<{ id: string; name: string; error?: string } | null>(null);
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
    const sure = await ask({
      title: t`Remove the passkey “${keyName}”? It will no longer sign you in.`,
      confirmLabel: t`Remove`,
      danger: true,
    });
    if (!sure) return;
    const r = await remove(id);
    if ('error' in r) toast({ title: t`Not removed`, description: describeApiError(r.error), variant: 'error' });
  }

  async function saveName(e: FormEvent) {
    e.preventDefault();
    if (!editing) return;
    const r = await rename({ id: editing.id, name: editing.name.trim() });
    if ('error' in r) return setEditing({ ...editing, error: describeApiError(r.error) });
    setEditing(null);
    toast({ title: t`Passkey renamed` });
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
              {editing?.id === k.id ? (
                <form onSubmit={(e) => void saveName(e)} className="grid w-full gap-2 sm:grid-cols-[1fr_auto_auto] sm:items-end">
                  <TextField
                    label={t`New name for “${k.name}”`}
                    maxLength={60}
                    autoFocus
                    value={editing.name}
                    onChange={(e) => setEditing({ id: k.id, name: e.target.value })}
                    onKeyDown={(e) => e.key === 'Escape' && setEditing(null)}
                    error={editing.error}
                  />
                  <Button type="submit" size="sm" disabled={renaming.isLoading}>
                    <Trans>Save</Trans>
                  </Button>
                  <Button type="button" variant="secondary" size="sm" onClick={() => setEditing(null)}>
                    <Trans>Cancel</Trans>
                  </Button>
                </form>
              ) : (
                <>
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
                  <div className="flex gap-2">
                    <Button
                      variant="secondary"
                      size="sm"
                      aria-label={t`Rename passkey ${k.name}`}
                      onClick={() => setEditing({ id: k.id, name: k.name })}
                    >
                      <Trans>Rename</Trans>
                    </Button>
                    <Button variant="secondary" size="sm" aria-label={t`Remove passkey ${k.name}`} onClick={() => void drop(k.id, k.name)}>
                      <Trans>Remove</Trans>
                    </Button>
                  </div>
                </>
              )}
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
