import { useState, type FormEvent } from 'react';
import { USERNAME_HELD_DAYS } from '@parley/contract/accounts';
import { usernameSchema } from '@parley/contract/auth';
import { TextField } from '../../../components/FormField';
import { Button } from '../../../components/ui/Button';
import { Section } from '../../../components/ui/Section';
import { describeApiError } from '../../../lib/apiError';
import { toast } from '../../../lib/toast';
import { useChangeUsernameMutation, useGetUsernameStatusQuery } from '../accountsApi';

/** Settings › Username: one change a month; the old name stays held for you a while. (The password changes on the profile page.) */
export default function UsernameSection() {
  const { data: status } = useGetUsernameStatusQuery();
  const [change, changing] = useChangeUsernameMutation();
  const [username, setUsername] = useState('');
  const [error, setError] = useState('');
  if (!status) return null;
  const nextChange = status.nextChangeAt ? new Date(status.nextChangeAt).toLocaleDateString(undefined, { dateStyle: 'long' }) : null;

  async function submit(e: FormEvent) {
    e.preventDefault();
    const parsed = usernameSchema.safeParse(username);
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? 'Check the name.');
    const result = await change({ username: parsed.data });
    if ('error' in result) return setError(describeApiError(result.error));
    setError('');
    setUsername('');
    toast({ title: 'Username changed', description: `You are now ${parsed.data}.` });
  }

  return (
    <Section
      title="Username"
      description={`You can change your username once a month. Nobody else can take your old one for ${USERNAME_HELD_DAYS} days.`}
    >
      {nextChange ? (
        <p className="text-sm text-slate-700">
          You are <strong>{status.username}</strong>. Your next change is possible on {nextChange}.
        </p>
      ) : (
        <form onSubmit={(e) => void submit(e)} className="grid max-w-md gap-3" noValidate>
          <TextField
            label="New username"
            autoComplete="username"
            value={username}
            error={error || undefined}
            hint={`Now: ${status.username}`}
            onChange={(e) => {
              setUsername(e.target.value);
              setError('');
            }}
          />
          <div>
            <Button type="submit" disabled={changing.isLoading}>
              {changing.isLoading ? 'Changing…' : 'Change username'}
            </Button>
          </div>
        </form>
      )}
    </Section>
  );
}
