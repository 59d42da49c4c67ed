import type { I18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useParams } from 'react-router-dom';
import type { LiveRecordEntry } from '@parley/contract/live';
import { REPORT_REASONS, type ReportReason } from '@parley/contract/safety';
import { DocumentTitle } from '../../components/DocumentTitle';
import { PageHeader } from '../../components/ui/PageHeader';
import { EmptyState } from '../../components/ui/EmptyState';
import { REASON_LABELS } from '../../components/conversation/reportReasons';
import { describeEntry, when } from '../../components/conversation/moderationRecord';
import { httpStatus } from '../../lib/apiError';
import { useLiveRecordQuery } from './liveApi';

const isReason = (r: string): r is ReportReason => (REPORT_REASONS as readonly string[]).includes(r);

/** One line of a stream's record in the interface language: a moderation as a group room's record says it, or a report. */
function describe(e: LiveRecordEntry, i18n: I18n): string {
  if (e.kind === 'moderation') return describeEntry(e, i18n);
  const target = e.target ?? i18n._(msg`someone who left`);
  const reason = isReason(e.reason) ? i18n._(REASON_LABELS[e.reason]) : e.reason;
  const reporter = e.reporter;
  return reporter ? i18n._(msg`${reporter} reported ${target}: ${reason}`) : i18n._(msg`A viewer reported ${target}: ${reason}`);
}

/** `/livestream/:roomId/record`: what happened in a stream's chat, for its broadcaster (and admins). */
export default function LiveRecordPage() {
  const { i18n, t } = useLingui();
  const { roomId = '' } = useParams();
  const { data, error, isLoading } = useLiveRecordQuery(roomId);
  const back = `/livestream/${encodeURIComponent(roomId)}`;
  const status = error ? httpStatus(error) : null;
  const streamTitle = data?.stream.title ?? '';
  const title = data ? t`Moderation record: ${streamTitle}` : t`Moderation record`;

  return (
    <main id="main" className="min-h-frame bg-surface-muted">
      <DocumentTitle title={t`${title} · Parley`} />
      <PageHeader back={back} backLabel={t`The stream`} title={title} />
      <div className="mx-auto grid max-w-3xl gap-4 px-4 py-6">
        {isLoading && (
          <p>
            <Trans>Loading the record…</Trans>
          </p>
        )}
        {error && (
          <p role="alert" className="rounded-xl bg-amber-100 p-3 text-amber-950">
            {status === 403 ? (
              <Trans>Only the broadcaster can see this stream’s record.</Trans>
            ) : status === 404 ? (
              <Trans>We couldn&apos;t find that stream</Trans>
            ) : (
              <Trans>We could not load the record. Check your connection and reload the page.</Trans>
            )}
          </p>
        )}
        {data && (
          <>
            <RanWhen startedAt={data.stream.startedAt} endedAt={data.stream.endedAt} />
            {data.entries.length === 0 ? (
              <EmptyState>{t`Nothing happened that needed a moderator.`}</EmptyState>
            ) : (
              <ol className="grid gap-2" data-testid="live-record">
                {data.entries.map((e) => (
                  <li key={`${e.kind}:${e.id}`} className="rounded-lg bg-surface p-3 text-fg">
                    <time dateTime={new Date(e.at).toISOString()} className="me-2 text-body-sm text-fg-muted">
                      {i18n.date(new Date(e.at), when)}
                    </time>
                    {describe(e, i18n)}
                  </li>
                ))}
              </ol>
            )}
          </>
        )}
      </div>
    </main>
  );
}

/** When the stream ran (the span its record covers), in the interface language. */
function RanWhen({ startedAt, endedAt }: { startedAt: number; endedAt: number | undefined }) {
  const { i18n } = useLingui();
  const from = i18n.date(new Date(startedAt), when);
  const to = endedAt === undefined ? null : i18n.date(new Date(endedAt), when);
  return (
    <p className="text-fg-muted">
      {to === null ? (
        <Trans>Live since {from}: mutes, bans, slow mode, deleted messages and reports in the stream’s chat.</Trans>
      ) : (
        <Trans>
          From {from} to {to}: mutes, bans, slow mode, deleted messages and reports in the stream’s chat.
        </Trans>
      )}
    </p>
  );
}
