import { useState, type FormEvent } from 'react';
import { emailSchema } from '@parley/contract/accounts';
import { TextField } from '../../../components/ui/Field';
import { Button } from '../../../components/ui/Button';
import { Section } from '../../../components/ui/Section';
import { describeApiError } from '../../../lib/apiError';
import { toast } from '../../../lib/toast';
import { useGetAccountEmailQuery, useRemoveAccountEmailMutation, useSetAccountEmailMutation } from '../accountsApi';
import { Trans, useLingui } from '@lingui/react/macro';

/**
 * Settings › Email: optional, for password resets and sign-in alerts; never shown to anyone else.
 * Hidden on a server that cannot send email.
 */
export default function EmailSection() {
  const { data: status, error: loadError } = useGetAccountEmailQuery();
  const [save, saving] = useSetAccountEmailMutation();
  const [remove, removing] = useRemoveAccountEmailMutation();
  const [email, setEmail] = useState('');
  const [error, setError] = useState('');
  const { t } = useLingui();

  if (loadError) {
    return (
      <Section title={t`Email`}>
        <p role="alert" className="text-sm text-red-700">
          {describeApiError(loadError, t`Your email settings could not be loaded.`)}
        </p>
      </Section>
    );
  }
  if (!status?.configured) return null;

  async function submit(e: FormEvent) {
    e.preventDefault();
    const parsed = emailSchema.safeParse(email);
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? t`Check the address.`);
    const result = await save({ email: parsed.data });
    if ('error' in result) return setError(describeApiError(result.error));
    setError('');
    setEmail('');
    const address = parsed.data;
    toast({ title: t`Check your inbox`, description: t`We sent a confirmation link to ${address}. It works for 24 hours.` });
  }

  return (
    <Section
      title={t`Email`}
      description={t`Optional. It lets you reset a forgotten password and tells you about sign-ins from new devices. Nobody else ever sees it.`}
    >
      <div className="grid gap-3">
        <p className="text-sm text-slate-800" data-testid="email-status">
          {status.email ? (
            <Trans>
              Your email: <strong>{status.email}</strong> (confirmed)
            </Trans>
          ) : (
            t`No confirmed email on this account.`
          )}
        </p>
        {status.pending && (
          <p className="text-sm text-slate-700" role="status">
            <Trans>
              Waiting for you to open the link sent to <strong>{status.pending}</strong>.
            </Trans>
          </p>
        )}
        <form onSubmit={(e) => void submit(e)} className="grid max-w-md gap-3" noValidate>
          <TextField
            label={status.email ? t`New email` : t`Email`}
            type="email"
            autoComplete="email"
            value={email}
            error={error || undefined}
            onChange={(e) => {
              setEmail(e.target.value);
              setError('');
            }}
            hint={status.email ? t`Your current address is told about the change.` : undefined}
          />
          <div className="flex flex-wrap gap-2">
            <Button type="submit" disabled={saving.isLoading}>
              {saving.isLoading ? t`Sending…` : t`Send confirmation link`}
            </Button>
            {(status.email || status.pending) && (
              <Button
                variant="secondary"
                disabled={removing.isLoading}
                onClick={() =>
                  void remove().then((r) => {
                    if ('error' in r) setError(describeApiError(r.error));
                    else toast({ title: t`Email removed`, description: t`Password reset by email is off for this account.` });
                  })
                }
              >
                <Trans>Remove email</Trans>
              </Button>
            )}
          </div>
        </form>
      </div>
    </Section>
  );
}
