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

const dateOf = (iso: string) => new Date(iso).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
import { passkeyErrorMessage } from './passkeyErrors';

/** Settings → Passkeys: sign in with the device's lock instead of a password; one or more, named. */
export function PasskeysSection() {
  const { data } = useGetFactorsQuery();
  const [options] = usePasskeyRegistrationOptionsMutation();
  const [register, registering] = useRegisterPasskeyMutation();
  const [remove] = useRemovePasskeyMutation();
  const [name, setName] = useState('');
  const [error, setError] = useState('');
  const supported = browserSupportsWebAuthn();

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
    const r = await register({ name: name.trim() || 'Passkey', response });
    if ('error' in r) return setError(describeApiError(r.error));
    setName('');
    toast({ title: 'Passkey added', description: 'You can sign in with it from now on.' });
  }

  async function drop(id: string, keyName: string) {
    if (!window.confirm(`Remove the passkey “${keyName}”? It will no longer sign you in.`)) return;
    const r = await remove(id);
    if ('error' in r) toast({ title: 'Not removed', description: describeApiError(r.error), variant: 'error' });
  }

  return (
    <SettingsCard
      id="passkeys"
      title="Passkeys"
      description="Sign in with your fingerprint, face or screen lock instead of a password. Works on phones and computers."
    >
      {data && data.passkeys.length > 0 ? (
        <ul className="mb-4 grid gap-2">
          {data.passkeys.map((k) => (
            <li key={k.id} className="flex flex-wrap items-center justify-between gap-2 rounded-lg border border-slate-200 p-3">
              <div>
                <p className="font-semibold text-slate-900">{k.name}</p>
                <p className="text-sm text-slate-700">
                  Added {dateOf(k.createdAt)} · {k.lastUsedAt ? `last used ${dateOf(k.lastUsedAt)}` : 'not used yet'}
                </p>
              </div>
              <Button variant="secondary" size="sm" aria-label={`Remove passkey ${k.name}`} onClick={() => void drop(k.id, k.name)}>
                Remove
              </Button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="mb-4 text-sm text-slate-700">No passkeys yet.</p>
      )}
      {supported ? (
        <form onSubmit={(e) => void add(e)} className="grid gap-3 sm:grid-cols-[1fr_auto] sm:items-end">
          <TextField
            label="Passkey name"
            placeholder="e.g. My phone"
            maxLength={60}
            value={name}
            onChange={(e) => setName(e.target.value)}
            error={error || undefined}
          />
          <Button type="submit" disabled={registering.isLoading}>
            Add a passkey
          </Button>
        </form>
      ) : (
        <p className="text-sm text-slate-700">This browser cannot use passkeys.</p>
      )}
    </SettingsCard>
  );
}
