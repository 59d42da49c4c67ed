import { useState, type FormEvent } from 'react';
import { USERNAME_HELD_DAYS } from '@parley/contract/accounts';
import { usernameSchema } from '@parley/contract/auth';
import { TextField } from '../../../components/ui/Field';
import { Button } from '../../../components/ui/Button';
import { Section } from '../../../components/ui/Section';
import { describeApiError } from '../../../lib/apiError';
import { toast } from '../../../lib/toast';
import { useChangeUsernameMutation, useGetUsernameStatusQuery } from '../accountsApi';
import { Trans, useLingui } from '@lingui/react/macro';

/** Settings › Username: one change a month; the old name stays held for you a while. (The password changes on the profile page.) */
export default function UsernameSection() {
  const { data: status } = useGetUsernameStatusQuery();
  const [change, changing] = useChangeUsernameMutation();
  const [username, setUsername] = useState('');
  const [error, setError] = useState('');
  const { t, i18n } = useLingui();
  if (!status) return null;
  const nextChange = status.nextChangeAt ? i18n.date(new Date(status.nextChangeAt), { dateStyle: 'long' }) : null;
  const current = status.username;

  async function submit(e: FormEvent) {
    e.preventDefault();
    const parsed = usernameSchema.safeParse(username);
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? t`Check the name.`);
    const result = await change({ username: parsed.data });
    if ('error' in result) return setError(describeApiError(result.error));
    setError('');
    setUsername('');
    const name = parsed.data;
    toast({ title: t`Username changed`, description: t`You are now ${name}.` });
  }

  return (
    <Section
      title={t`Username`}
      description={t`You can change your username once a month. Nobody else can take your old one for ${USERNAME_HELD_DAYS} days.`}
    >
      {nextChange ? (
        <p className="text-sm text-slate-700">
          <Trans>
            You are <strong>{current}</strong>. Your next change is possible on{' '}
            <time dateTime={status.nextChangeAt ?? undefined}>{nextChange}</time>.
          </Trans>
        </p>
      ) : (
        <form onSubmit={(e) => void submit(e)} className="grid max-w-md gap-3" noValidate>
          <TextField
            label={t`New username`}
            autoComplete="username"
            value={username}
            error={error || undefined}
            hint={t`Now: ${current}`}
            onChange={(e) => {
              setUsername(e.target.value);
              setError('');
            }}
          />
          <div>
            <Button type="submit" disabled={changing.isLoading}>
              {changing.isLoading ? t`Changing…` : t`Change username`}
            </Button>
          </div>
        </form>
      )}
    </Section>
  );
}
