import { useEffect, useId, useState, type FormEvent } from 'react';
import { i18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import {
  MODERATION_ACTIONS,
  RULES,
  type LinkedAccount,
  type ModerationActionKind,
  type ReportView,
  type RuleId,
} from '@parley/contract/safety';
import { focusRing, primaryButton } from '../../components/ui/buttonStyles';
import { describeApiError } from '../../lib/apiError';
import { weightLabel } from './reportWeight';
import { useAttachmentLoader } from '../../store/api';
import { useDecideMutation, useModerationCaseQuery, useReportSnapshotQuery } from './safetyApi';
import { actionLabel, contextLabel, decisionLabel, encounterLabel, isRule, reasonLabel, ruleTitle } from './safetyWords';
import { When } from './When';
import { MediaImage } from '../../components/conversation/MediaImage';
import { mediaAlt } from '../../components/conversation/stickerWords';
import { Trans, useLingui } from '@lingui/react/macro';

const field = `rounded-lg border border-slate-400 bg-white px-3 py-2 text-base ${focusRing}`;

/** One reported person: the evidence of each report, their history, and the decision form. */
export function CaseView({ userId, onDecided }: { userId: string; onDecided(): void }) {
  const { data, error, refetch } = useModerationCaseQuery(userId);
  const { t } = useLingui();
  if (error) return <p role="alert">{describeApiError(error)}</p>;
  if (!data)
    return (
      <p role="status">
        <Trans>Loading…</Trans>
      </p>
    );
  const username = data.user.username;
  const joined = <When iso={data.user.createdAt} />;
  const until = data.user.bannedUntil ? <When iso={data.user.bannedUntil} /> : null;
  return (
    <section aria-label={t`Case of ${username}`} className="grid gap-4">
      <header className="rounded-xl bg-white p-4 ring-1 ring-slate-200">
        <h2 className="text-xl font-bold text-slate-950">{data.user.username}</h2>
        <p className="text-sm text-slate-700">
          <Trans>Joined {joined}</Trans>
          {data.user.banned && (until ? <Trans> · suspended until {until}</Trans> : <Trans> · banned</Trans>)}
          {data.restricted && (
            <Trans> · restricted (signed up from a banned account’s network or device: text chat only, among people in review)</Trans>
          )}
        </p>
      </header>
      <Decision
        userId={userId}
        onDone={() => {
          void refetch();
          onDecided();
        }}
      />
      <h3 className="text-lg font-bold text-slate-950">
        <Trans>Reports</Trans>
      </h3>
      <ul className="grid gap-3">
        {data.reports.map((r) => (
          <Report key={r.id} report={r} />
        ))}
      </ul>
      <LinkedAccounts linked={data.linkedAccounts} />
      <h3 className="text-lg font-bold text-slate-950">
        <Trans>History</Trans>
      </h3>
      {data.actions.length === 0 ? (
        <p className="text-slate-700">
          <Trans>No earlier decisions.</Trans>
        </p>
      ) : (
        <ul className="grid gap-2">
          {data.actions.map((a) => (
            <li key={a.id} className="rounded-lg bg-white p-3 text-sm text-slate-800 ring-1 ring-slate-200">
              <strong>{decisionLabel(a.action)}</strong>
              {isRule(a.rule) && ` · ${ruleTitle(a.rule)}`}
              {a.until && <Until iso={a.until} />} · <When iso={a.createdAt} />
              {a.moderator && <By name={a.moderator} />}
              {a.note && <span className="block text-slate-700">{a.note}</span>}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** " · until <date>" of a decision that ends. */
function Until({ iso }: { iso: string }) {
  const date = <When iso={iso} />;
  return <Trans> · until {date}</Trans>;
}

/** " · by <moderator>". */
function By({ name }: { name: string }) {
  return <Trans> · by {name}</Trans>;
}

/** Accounts sharing a network, device fingerprint or browser with this one: a hint, never proof. */
function LinkedAccounts({ linked }: { linked: LinkedAccount[] }) {
  const { t } = useLingui();
  const signal = { network: t`same network`, device: t`same device fingerprint`, browser: t`same browser` };
  return (
    <>
      <h3 className="text-lg font-bold text-slate-950">
        <Trans>Linked accounts</Trans>
      </h3>
      <p className="text-sm text-slate-700">
        <Trans>Shared networks and identical phones link strangers too: weigh these with the reports, not instead of them.</Trans>
      </p>
      {linked.length === 0 ? (
        <p className="text-slate-700">
          <Trans>No other account shares a network, device or browser with this one.</Trans>
        </p>
      ) : (
        <ul className="grid gap-2">
          {linked.map((l) => (
            <li key={l.user.userId} className="rounded-lg bg-white p-3 text-sm text-slate-800 ring-1 ring-slate-200">
              <strong>{l.user.username}</strong>
              {l.user.banned && (l.user.bannedUntil ? <SuspendedUntil iso={l.user.bannedUntil} /> : <Trans> · banned</Trans>)} ·{' '}
              {l.linkedBy.map((k) => signal[k]).join(', ')} · <LastSeen iso={l.lastSeen} />
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

function SuspendedUntil({ iso }: { iso: string }) {
  const date = <When iso={iso} />;
  return <Trans> · suspended until {date}</Trans>;
}

function LastSeen({ iso }: { iso: string }) {
  const date = <When iso={iso} />;
  return <Trans>last seen {date}</Trans>;
}

export function Report({ report }: { report: ReportView }) {
  const { t } = useLingui();
  const weight = weightLabel(report.weight);
  const met = report.encounter ? encounterLabel(report.encounter) : '';
  return (
    <li className="grid gap-2 rounded-xl bg-white p-4 ring-1 ring-slate-200">
      <p className="text-sm text-slate-800">
        <strong>{reasonLabel(report.reason)}</strong> · <By name={report.reporter.username} /> · {contextLabel(report.context)} ·{' '}
        <When iso={report.createdAt} />
        {report.resolution && ` · ${decisionLabel(report.resolution)}`}
      </p>
      <p className="text-sm text-slate-700">
        {report.encounter ? (
          <Trans>
            Weight {weight} of 1 · the reporter {met}
          </Trans>
        ) : (
          <Trans>
            Weight {weight} of 1 · the reporter{' '}
            <strong className="text-rose-800">never met them (a report without an encounter counts nothing towards review)</strong>
          </Trans>
        )}
      </p>
      {report.note && <p className="text-slate-900">“{report.note}”</p>}
      {report.messages && (
        <ol aria-label={t`Messages, as the server holds them`} className="grid max-h-72 gap-1 overflow-y-auto rounded-lg bg-slate-50 p-2">
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
              <span className={m.sender ? 'font-semibold' : 'sr-only'}>{senderLabel(m.sender, m.from)} </span>
              {m.attachment && <EvidenceAttachment reportId={report.id} attachment={m.attachment} />}
              {m.media && (
                <span className="my-1 block">
                  <MediaImage media={m.media} />
                  {/* Named in words too: a GIF from an outside library may no longer load. The image's alt says the same. */}
                  <span aria-hidden="true" className="block text-xs">
                    {mediaAlt(i18n, m.media)}
                  </span>
                </span>
              )}
              {m.text ||
                (!m.attachment && !m.media && (
                  <em>
                    <Trans>deleted</Trans>
                  </em>
                ))}
              {m.reported && (
                <strong className="ms-1 text-rose-800">
                  <Trans>· the reported message</Trans>
                </strong>
              )}
            </li>
          ))}
        </ol>
      )}
      {report.hasSnapshot && <Snapshot id={report.id} />}
      {!report.messages && !report.hasSnapshot && (
        <p className="text-sm text-slate-600">
          <Trans>No evidence attached (or it was deleted after 90 days).</Trans>
        </p>
      )}
    </li>
  );
}

/** Who wrote a message of the evidence: its author in a room of many, else the side of a 1:1 chat. */
function senderLabel(sender: string | undefined, from: 'reporter' | 'reported' | 'other'): string {
  if (!sender) return from === 'reported' ? i18n._(msg`Reported person:`) : i18n._(msg`Reporter:`);
  if (from === 'reported') return i18n._(msg`${sender} (reported):`);
  if (from === 'reporter') return i18n._(msg`${sender} (reporter):`);
  return i18n._(msg`${sender}:`);
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
  const { t } = useLingui();
  useEffect(() => () => (url ? URL.revokeObjectURL(url) : undefined), [url]);
  return url ? (
    <img src={url} alt={t`The reported person’s video at the moment of the report`} className="max-h-64 w-auto rounded-lg" />
  ) : null;
}

function Decision({ userId, onDone }: { userId: string; onDone(): void }) {
  const [action, setAction] = useState<ModerationActionKind>('warn');
  const [rule, setRule] = useState<RuleId>('respect');
  const [hours, setHours] = useState('24');
  const [note, setNote] = useState('');
  const [decide, { isLoading, error }] = useDecideMutation();
  const ids = { action: useId(), rule: useId(), hours: useId(), note: useId() };
  const { t } = useLingui();

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
    <form onSubmit={submit} aria-label={t`Decision`} className="grid gap-3 rounded-xl bg-white p-4 ring-1 ring-slate-200 sm:grid-cols-2">
      <label htmlFor={ids.action} className="grid gap-1 text-sm font-semibold text-slate-900">
        <Trans>Action</Trans>
        <select id={ids.action} value={action} onChange={(e) => setAction(e.target.value as ModerationActionKind)} className={field}>
          {MODERATION_ACTIONS.map((a) => (
            <option key={a} value={a}>
              {actionLabel(a)}
            </option>
          ))}
        </select>
      </label>
      {action !== 'dismiss' && (
        <label htmlFor={ids.rule} className="grid gap-1 text-sm font-semibold text-slate-900">
          <Trans>Rule broken</Trans>
          <select id={ids.rule} value={rule} onChange={(e) => setRule(e.target.value as RuleId)} className={field}>
            {(Object.keys(RULES) as RuleId[]).map((r) => (
              <option key={r} value={r}>
                {ruleTitle(r)}
              </option>
            ))}
          </select>
        </label>
      )}
      {action === 'suspend' && (
        <label htmlFor={ids.hours} className="grid gap-1 text-sm font-semibold text-slate-900">
          <Trans>Hours</Trans>
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
        <Trans>Note (the user sees it with a warning)</Trans>
        <textarea id={ids.note} value={note} maxLength={2000} rows={2} onChange={(e) => setNote(e.target.value)} className={field} />
      </label>
      {error && (
        <p role="alert" className="text-rose-900 sm:col-span-2">
          {describeApiError(error)}
        </p>
      )}
      <button type="submit" disabled={isLoading} className={`${primaryButton} sm:col-span-2`}>
        {actionLabel(action)}
      </button>
    </form>
  );
}
