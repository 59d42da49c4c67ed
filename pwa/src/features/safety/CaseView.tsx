import { useEffect, useId, useState, type FormEvent } from 'react';
import {
  MODERATION_ACTIONS,
  REPORT_REASON_LABELS,
  RULES,
  type LinkedAccount,
  type ModerationActionKind,
  type ReportEncounter,
  type ReportView,
  type RuleId,
} from '@parley/contract/safety';
import { focusRing, primaryButton } from '../../components/FormField';
import { describeApiError } from '../../lib/apiError';
import { weightLabel } from './reportWeight';
import { useAttachmentLoader } from '../../app/api';
import { useLingui } from '@lingui/react/macro';
import { useDecideMutation, useModerationCaseQuery, useReportSnapshotQuery } from './safetyApi';

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const ACTION_LABELS: Record<ModerationActionKind, string> = { dismiss: 'Dismiss', warn: 'Warn', suspend: 'Suspend', ban: 'Ban' };
const ENCOUNTER_LABELS: Record<ReportEncounter, string> = {
  chat: 'had a 1:1 chat with them',
  group: 'shares a group room with them',
  direct: 'had direct messages from them',
  live: 'watched their live stream',
};
const field = `rounded-lg border border-slate-400 bg-white px-3 py-2 text-base ${focusRing}`;

/** One reported person: the evidence of each report, their history, and the decision form. */
export function CaseView({ userId, onDecided }: { userId: string; onDecided(): void }) {
  const { data, error, refetch } = useModerationCaseQuery(userId);
  if (error) return <p role="alert">{describeApiError(error)}</p>;
  if (!data) return <p role="status">Loading…</p>;
  return (
    <section aria-label={`Case of ${data.user.username}`} className="grid gap-4">
      <header className="rounded-xl bg-white p-4 ring-1 ring-slate-200">
        <h2 className="text-xl font-bold text-slate-950">{data.user.username}</h2>
        <p className="text-sm text-slate-700">
          Joined {when(data.user.createdAt)}
          {data.user.banned && (data.user.bannedUntil ? ` · suspended until ${when(data.user.bannedUntil)}` : ' · banned')}
          {data.restricted && ' · restricted (signed up from a banned account’s network or device: text chat only, among people in review)'}
        </p>
      </header>
      <Decision
        userId={userId}
        onDone={() => {
          void refetch();
          onDecided();
        }}
      />
      <h3 className="text-lg font-bold text-slate-950">Reports</h3>
      <ul className="grid gap-3">
        {data.reports.map((r) => (
          <Report key={r.id} report={r} />
        ))}
      </ul>
      <LinkedAccounts linked={data.linkedAccounts} />
      <h3 className="text-lg font-bold text-slate-950">History</h3>
      {data.actions.length === 0 ? (
        <p className="text-slate-700">No earlier decisions.</p>
      ) : (
        <ul className="grid gap-2">
          {data.actions.map((a) => (
            <li key={a.id} className="rounded-lg bg-white p-3 text-sm text-slate-800 ring-1 ring-slate-200">
              <strong>{a.action}</strong>
              {a.rule && ` · ${RULES[a.rule]}`}
              {a.until && ` · until ${when(a.until)}`} · {when(a.createdAt)}
              {a.moderator && ` · by ${a.moderator}`}
              {a.note && <span className="block text-slate-700">{a.note}</span>}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

const LINK_LABELS: Record<LinkedAccount['linkedBy'][number], string> = {
  network: 'same network',
  device: 'same device fingerprint',
  browser: 'same browser',
};

/** Accounts sharing a network, device fingerprint or browser with this one: a hint, never proof. */
function LinkedAccounts({ linked }: { linked: LinkedAccount[] }) {
  return (
    <>
      <h3 className="text-lg font-bold text-slate-950">Linked accounts</h3>
      <p className="text-sm text-slate-700">
        Shared networks and identical phones link strangers too: weigh these with the reports, not instead of them.
      </p>
      {linked.length === 0 ? (
        <p className="text-slate-700">No other account shares a network, device or browser with this one.</p>
      ) : (
        <ul className="grid gap-2">
          {linked.map((l) => (
            <li key={l.user.userId} className="rounded-lg bg-white p-3 text-sm text-slate-800 ring-1 ring-slate-200">
              <strong>{l.user.username}</strong>
              {l.user.banned && (l.user.bannedUntil ? ` · suspended until ${when(l.user.bannedUntil)}` : ' · banned')} ·{' '}
              {l.linkedBy.map((k) => LINK_LABELS[k]).join(', ')} · last seen {when(l.lastSeen)}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

function Report({ report }: { report: ReportView }) {
  return (
    <li className="grid gap-2 rounded-xl bg-white p-4 ring-1 ring-slate-200">
      <p className="text-sm text-slate-800">
        <strong>{REPORT_REASON_LABELS[report.reason]}</strong> · by {report.reporter.username} · {report.context} · {when(report.createdAt)}
        {report.resolution && ` · ${report.resolution}`}
      </p>
      <p className="text-sm text-slate-700">
        Weight {weightLabel(report.weight)} of 1 · the reporter{' '}
        {report.encounter ? ENCOUNTER_LABELS[report.encounter] : <strong className="text-rose-800">never met them (a report without an encounter counts nothing towards review)</strong>}
      </p>
      {report.note && <p className="text-slate-900">“{report.note}”</p>}
      {report.messages && (
        <ol aria-label="Messages, as the server holds them" className="grid max-h-72 gap-1 overflow-y-auto rounded-lg bg-slate-50 p-2">
          {report.messages.map((m, i) => (
            <li
              key={i}
              className={`max-w-[85%] break-words rounded-lg px-2 py-1 text-sm ${
                m.from === 'reported'
                  ? 'bg-rose-100 text-rose-950'
                  : m.from === 'reporter'
                    ? 'justify-self-end bg-indigo-100 text-indigo-950'
                    : 'bg-white text-slate-900 ring-1 ring-slate-200'
              } ${m.reported ? 'ring-2 ring-rose-700' : ''}`}
            >
              {/* Rooms of many people name each author; a 1:1 chat has only the two sides. */}
              <span className={m.sender ? 'font-semibold' : 'sr-only'}>
                {m.sender
                  ? `${m.sender}${m.from === 'reported' ? ' (reported)' : m.from === 'reporter' ? ' (reporter)' : ''}: `
                  : m.from === 'reported'
                    ? 'Reported person: '
                    : 'Reporter: '}
              </span>
              {m.attachment && <EvidenceAttachment reportId={report.id} attachment={m.attachment} />}
              {m.text || (!m.attachment && <em>deleted</em>)}
              {m.reported && <strong className="ml-1 text-rose-800">· the reported message</strong>}
            </li>
          ))}
        </ol>
      )}
      {report.hasSnapshot && <Snapshot id={report.id} />}
      {!report.messages && !report.hasSnapshot && (
        <p className="text-sm text-slate-600">No evidence attached (or it was deleted after 90 days).</p>
      )}
    </li>
  );
}

/** A picture or voice message the report keeps as evidence (moderators only), fetched as the signed-in moderator. */
function EvidenceAttachment({ reportId, attachment }: { reportId: string; attachment: { id: string; kind: 'image' | 'voice' } }) {
  const { t } = useLingui();
  const load = useAttachmentLoader();
  const [url, setUrl] = useState<string | 'failed' | null>(null);
  useEffect(() => {
    let objectUrl: string | undefined;
    let live = true;
    load(`/api/moderation/reports/${reportId}/attachments/${attachment.id}`).then(
      (blob) => {
        objectUrl = URL.createObjectURL(blob);
        if (live) setUrl(objectUrl);
      },
      () => live && setUrl('failed'),
    );
    return () => {
      live = false;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [load, reportId, attachment.id]);
  if (url === 'failed') return <em className="block">{t`This evidence is no longer kept.`}</em>;
  if (!url) return null;
  return attachment.kind === 'image' ? (
    <img src={url} alt={t`Picture in the reported conversation`} className="my-1 block max-h-64 w-auto rounded-lg" />
  ) : (
    <audio src={url} controls aria-label={t`Voice message in the reported conversation`} className="my-1 block" />
  );
}

function Snapshot({ id }: { id: string }) {
  const { data: url } = useReportSnapshotQuery(id);
  useEffect(() => () => (url ? URL.revokeObjectURL(url) : undefined), [url]);
  return url ? (
    <img src={url} alt="The reported person’s video at the moment of the report" className="max-h-64 w-auto rounded-lg" />
  ) : null;
}

function Decision({ userId, onDone }: { userId: string; onDone(): void }) {
  const [action, setAction] = useState<ModerationActionKind>('warn');
  const [rule, setRule] = useState<RuleId>('respect');
  const [hours, setHours] = useState('24');
  const [note, setNote] = useState('');
  const [decide, { isLoading, error }] = useDecideMutation();
  const ids = { action: useId(), rule: useId(), hours: useId(), note: useId() };

  async function submit(e: FormEvent) {
    e.preventDefault();
    const result = await decide({
      userId,
      action,
      note,
      ...(action !== 'dismiss' ? { rule } : {}),
      ...(action === 'suspend' ? { hours: Number(hours) } : {}),
    });
    if (!result.error) {
      setNote('');
      onDone();
    }
  }

  return (
    <form onSubmit={submit} aria-label="Decision" className="grid gap-3 rounded-xl bg-white p-4 ring-1 ring-slate-200 sm:grid-cols-2">
      <label htmlFor={ids.action} className="grid gap-1 text-sm font-semibold text-slate-900">
        Action
        <select id={ids.action} value={action} onChange={(e) => setAction(e.target.value as ModerationActionKind)} className={field}>
          {MODERATION_ACTIONS.map((a) => (
            <option key={a} value={a}>
              {ACTION_LABELS[a]}
            </option>
          ))}
        </select>
      </label>
      {action !== 'dismiss' && (
        <label htmlFor={ids.rule} className="grid gap-1 text-sm font-semibold text-slate-900">
          Rule broken
          <select id={ids.rule} value={rule} onChange={(e) => setRule(e.target.value as RuleId)} className={field}>
            {(Object.keys(RULES) as RuleId[]).map((r) => (
              <option key={r} value={r}>
                {RULES[r]}
              </option>
            ))}
          </select>
        </label>
      )}
      {action === 'suspend' && (
        <label htmlFor={ids.hours} className="grid gap-1 text-sm font-semibold text-slate-900">
          Hours
          <input
            id={ids.hours}
            inputMode="numeric"
            value={hours}
            onChange={(e) => setHours(e.target.value.replace(/\D/g, ''))}
            className={field}
          />
        </label>
      )}
      <label htmlFor={ids.note} className="grid gap-1 text-sm font-semibold text-slate-900 sm:col-span-2">
        Note (the user sees it with a warning)
        <textarea id={ids.note} value={note} maxLength={2000} rows={2} onChange={(e) => setNote(e.target.value)} className={field} />
      </label>
      {error && (
        <p role="alert" className="text-rose-900 sm:col-span-2">
          {describeApiError(error)}
        </p>
      )}
      <button type="submit" disabled={isLoading} className={`${primaryButton} sm:col-span-2`}>
        {ACTION_LABELS[action]}
      </button>
    </form>
  );
}
