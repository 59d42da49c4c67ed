import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { DocumentTitle } from '../../components/DocumentTitle';
import { TextField } from '../../components/ui/Field';
import { focusRing, primaryButton } from '../../components/ui/buttonStyles';
import { describeApiError } from '../../lib/apiError';
import { useAppealMutation } from './safetyApi';
import { Trans, useLingui } from '@lingui/react/macro';

/** /appeal: a suspended or banned account asks the team to look again, once, with its password. */
export default function AppealPage() {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [text, setText] = useState('');
  const [appeal, { isLoading, error, isSuccess }] = useAppealMutation();
  const { t } = useLingui();

  async function submit(e: FormEvent) {
    e.preventDefault();
    await appeal({ username, password, text });
  }

  return (
    <main id="main" className="flex min-h-frame items-start justify-center bg-slate-50 px-4 py-12">
      <DocumentTitle title={t`Appeal · Parley`} />
      <div className="w-full max-w-md rounded-3xl bg-white p-6 ring-1 ring-slate-200">
        <h1 className="text-2xl font-bold text-slate-950">
          <Trans>Appeal a suspension or ban</Trans>
        </h1>
        {isSuccess ? (
          <p role="status" className="mt-4 text-slate-800">
            <Trans>
              Your appeal is with our team. Try signing in again later; if the decision is lifted, you can use Parley as before.{' '}
              <Link to="/login" className={`font-semibold text-indigo-800 underline underline-offset-2 ${focusRing}`}>
                Back to sign-in
              </Link>
            </Trans>
          </p>
        ) : (
          <form onSubmit={submit} className="mt-4 grid gap-4">
            <p className="text-slate-700">
              <Trans>You can appeal each decision once. Tell us why you think it was a mistake.</Trans>
            </p>
            <TextField
              label={t`Username`}
              name="username"
              autoComplete="username"
              value={username}
              onChange={(e) => setUsername(e.target.value)}
              required
            />
            <TextField
              label={t`Password`}
              name="password"
              type="password"
              autoComplete="current-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              required
            />
            <label className="grid gap-1 text-sm font-semibold text-slate-900">
              <Trans>Your appeal</Trans>
              <textarea
                value={text}
                minLength={10}
                maxLength={2000}
                rows={5}
                required
                onChange={(e) => setText(e.target.value)}
                className={`rounded-lg border border-slate-400 px-3 py-2 text-base font-normal ${focusRing}`}
              />
            </label>
            {error && (
              <p role="alert" className="rounded-lg bg-rose-50 px-3 py-2 text-rose-900">
                {describeApiError(error)}
              </p>
            )}
            <button type="submit" disabled={isLoading} className={primaryButton}>
              <Trans>Send appeal</Trans>
            </button>
          </form>
        )}
      </div>
    </main>
  );
}
