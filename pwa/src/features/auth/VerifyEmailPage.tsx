import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { linkTokenSchema } from '@parley/contract/accounts';
import { AuthCard } from '../../components/ui/Card';
import { focusRing } from '../../components/ui/buttonStyles';
import { DocumentTitle } from '../../components/DocumentTitle';
import { describeApiError } from '../../lib/apiError';
import { useVerifyEmailMutation } from './accountsApi';
import { Trans, useLingui } from '@lingui/react/macro';

type Answer = { kind: 'done' } | { kind: 'failed'; message: string };
const sentLinks = new Map<string, Promise<Answer>>();

/** /verify-email?token=…: the confirmation link; works on any device, signed in or not. */
export default function VerifyEmailPage() {
  const [params] = useSearchParams();
  const parsed = linkTokenSchema.safeParse(params.get('token'));
  const token = parsed.success ? parsed.data : null;
  const [verify] = useVerifyEmailMutation();
  const [answer, setAnswer] = useState<Answer | null>(null);
  const { t } = useLingui();
  const state = token
    ? (answer ?? { kind: 'working' as const })
    : { kind: 'failed' as const, message: parsed.error?.issues[0]?.message ?? t`This link is incomplete.` };

  useEffect(() => {
    if (!token) return;
    let live = true;
    // Once per token for the page's life, even if the page mounts again (the session restoring
    // around it): the link is single-use, and a second call would answer that it was used.
    let sent = sentLinks.get(token);
    if (!sent) {
      sent = verify({ token }).then((r): Answer =>
        'error' in r ? { kind: 'failed', message: describeApiError(r.error) } : { kind: 'done' },
      );
      sentLinks.set(token, sent);
    }
    void sent.then((a) => live && setAnswer(a));
    return () => {
      live = false;
    };
  }, [token, verify]);

  return (
    <AuthCard>
      <DocumentTitle title={t`Confirm email · Parley`} />
      <h1 className="text-2xl font-bold text-slate-900">
        <Trans>Confirm your email</Trans>
      </h1>
      {state.kind === 'working' && (
        <p role="status" className="mt-4">
          <Trans>Confirming…</Trans>
        </p>
      )}
      {state.kind === 'done' && (
        <p role="status" className="mt-4 text-base text-slate-800">
          <Trans>
            Your email is confirmed. You can now reset your password by email, and we will tell you about sign-ins from new devices.
          </Trans>
        </p>
      )}
      {state.kind === 'failed' && (
        <p role="alert" className="mt-4 text-base text-red-700">
          {state.message}
        </p>
      )}
      <p className="mt-6 text-center text-sm text-slate-700">
        <Link to="/settingboard" className={`font-semibold text-indigo-700 underline ${focusRing}`}>
          <Trans>Go to Settings</Trans>
        </Link>
      </p>
    </AuthCard>
  );
}
