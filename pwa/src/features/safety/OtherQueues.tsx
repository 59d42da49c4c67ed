import { useId, useState, type FormEvent } from 'react';
import { SUPPORT_REPLY_MAX, type AppealView } from '@parley/contract/safety';
import { focusRing } from '../../components/ui/buttonStyles';
import { describeApiError } from '../../lib/apiError';
import { useDecideAppealMutation, useSupportHandledMutation, useSupportReplyMutation, type SupportItem } from './safetyApi';
import { decisionLabel, isRule, ruleTitle, topicLabel } from './safetyWords';
import { When } from './When';
import { Trans } from '@lingui/react/macro';

const button = `rounded-lg px-4 py-2 font-semibold ${focusRing}`;

/** Appeals of bans and suspensions, oldest first: grant (lifts it) or refuse. */
export function AppealsQueue({ appeals, onDecided }: { appeals: AppealView[]; onDecided(): void }) {
  const [decide, { error }] = useDecideAppealMutation();
  const [note, setNote] = useState('');
  if (appeals.length === 0)
    return (
      <p className="rounded-xl bg-white p-4 text-slate-700 ring-1 ring-slate-200">
        <Trans>No open appeals.</Trans>
      </p>
    );
  const act = async (id: string, grant: boolean) => {
    const r = await decide({ id, grant, note });
    if (!r.error) {
      setNote('');
      onDecided();
    }
  };
  return (
    <ul className="grid gap-3">
      {error && <li role="alert">{describeApiError(error)}</li>}
      {appeals.map((a) => (
        <li key={a.id} className="grid gap-2 rounded-xl bg-white p-4 ring-1 ring-slate-200">
          <AppealLine appeal={a} />
          <p className="text-slate-900">“{a.text}”</p>
          <label className="grid gap-1 text-sm font-semibold text-slate-900">
            <Trans>Note</Trans>
            <input
              value={note}
              onChange={(e) => setNote(e.target.value)}
              className={`rounded-lg border border-slate-400 px-3 py-2 ${focusRing}`}
            />
          </label>
          <div className="flex gap-2">
            <button type="button" onClick={() => void act(a.id, true)} className={`${button} bg-indigo-700 text-white`}>
              <Trans>Grant and lift</Trans>
            </button>
            <button type="button" onClick={() => void act(a.id, false)} className={`${button} text-slate-800 ring-1 ring-slate-300`}>
              <Trans>Refuse</Trans>
            </button>
          </div>
        </li>
      ))}
    </ul>
  );
}

/** Who appeals which decision (and its rule), taken when. */
function AppealLine({ appeal }: { appeal: AppealView }) {
  const username = appeal.user.username;
  const decision = decisionLabel(appeal.action.action);
  const rule = isRule(appeal.action.rule) ? ruleTitle(appeal.action.rule) : null;
  const date = <When iso={appeal.action.createdAt} />;
  return (
    <p className="text-sm text-slate-800">
      {rule ? (
        <Trans>
          <strong>{username}</strong> appeals this decision: {decision}, for “{rule}”, on {date}
        </Trans>
      ) : (
        <Trans>
          <strong>{username}</strong> appeals this decision: {decision}, on {date}
        </Trans>
      )}
    </p>
  );
}

/** Messages sent through /contact-support, newest first, until someone answers them or marks them handled. */
export function SupportQueue({ items, onHandled }: { items: SupportItem[]; onHandled(): void }) {
  const [handled] = useSupportHandledMutation();
  if (items.length === 0)
    return (
      <p className="rounded-xl bg-white p-4 text-slate-700 ring-1 ring-slate-200">
        <Trans>No open support requests.</Trans>
      </p>
    );
  return (
    <ul className="grid gap-3">
      {items.map((s) => (
        <li key={s.id} className="grid gap-2 rounded-xl bg-white p-4 ring-1 ring-slate-200">
          <p className="text-sm text-slate-800">
            <strong>{topicLabel(s.topic)}</strong> · {s.email} · <When iso={s.createdAt} />
          </p>
          <p className="whitespace-pre-wrap break-words text-slate-900">{s.message}</p>
          {s.userId ? (
            <SupportReply id={s.id} onSent={onHandled} />
          ) : (
            <p className="text-sm text-slate-700">
              <Trans>Sent without signing in: answer by email.</Trans>
            </p>
          )}
          <button
            type="button"
            onClick={() => void handled(s.id).then(onHandled)}
            className={`${button} justify-self-start text-slate-800 ring-1 ring-slate-300`}
          >
            <Trans>Mark handled</Trans>
          </button>
        </li>
      ))}
    </ul>
  );
}

/** A reply in the app: the sender finds it in their notifications (and as a push). */
function SupportReply({ id, onSent }: { id: string; onSent(): void }) {
  const [reply, { error, isLoading }] = useSupportReplyMutation();
  const [text, setText] = useState('');
  const fieldId = useId();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const r = await reply({ id, text });
    if (!r.error) {
      setText('');
      onSent();
    }
  };
  return (
    <form onSubmit={submit} className="grid gap-2">
      <label htmlFor={fieldId} className="text-sm font-semibold text-slate-800">
        <Trans>Reply (the sender sees it in their notifications)</Trans>
      </label>
      <textarea
        id={fieldId}
        value={text}
        maxLength={SUPPORT_REPLY_MAX}
        rows={3}
        onChange={(e) => setText(e.target.value)}
        className={`rounded-lg border border-slate-300 px-3 py-2 text-base ${focusRing}`}
      />
      {error && (
        <p role="alert" className="rounded-lg bg-rose-50 px-3 py-2 text-rose-900">
          {describeApiError(error)}
        </p>
      )}
      <button
        type="submit"
        disabled={isLoading || text.trim().length < 2}
        className={`${button} justify-self-start bg-indigo-700 text-white hover:bg-indigo-800 disabled:opacity-60`}
      >
        <Trans>Send reply</Trans>
      </button>
    </form>
  );
}
