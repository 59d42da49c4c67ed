import { useEffect, useState } from 'react';
import { Navigate } from 'react-router-dom';
import { SHADOW_QUEUE_REPORTERS, safetyEvents } from '@parley/contract/safety';
import { DocumentTitle } from '../../components/DocumentTitle';
import { focusRing } from '../../components/ui/buttonStyles';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/Tabs';
import { errorBody, httpStatus } from '../../lib/apiError';
import { emitSocketWithAck, onSocketEvent, useSocketStatus } from '../../realtime/socket';
import { CaseView } from './CaseView';
import { weightLabel } from './reportWeight';
import { AppealsQueue, SupportQueue } from './OtherQueues';
import { useModerationQueueQuery, useOpenAppealsQuery, useSupportQueueQuery } from './safetyApi';
import { reasonLabel } from './safetyWords';
import { When } from './When';
import { Plural, Trans, useLingui } from '@lingui/react/macro';

type Tab = 'reports' | 'appeals' | 'support';

/** /moderation: reports grouped by person, appeals and support requests, live as they arrive. */
export default function ModerationPage() {
  const queue = useModerationQueueQuery();
  const appeals = useOpenAppealsQuery();
  const support = useSupportQueueQuery();
  const [tab, setTab] = useState<Tab>('reports');
  const [selected, setSelected] = useState<string | null>(null);
  const socket = useSocketStatus();
  const { t } = useLingui();

  // A new report or appeal reaches this page within a second: the server tells the moderators' room.
  useEffect(() => {
    if (socket !== 'connected') return;
    void emitSocketWithAck(WATCH, {}, 5000).catch(() => undefined);
    return onSocketEvent(safetyEvents.queueChanged, () => {
      void queue.refetch();
      void appeals.refetch();
    });
  }, [socket, queue, appeals]);

  // Staff without two-factor are sent to turn it on first; everyone else has no business here.
  if (httpStatus(queue.error) === 403 && errorBody(queue.error).code === 'two_factor_required') {
    return <Navigate to="/settingboard#two-factor" replace state={{ twoFactorRequired: true }} />;
  }
  if (httpStatus(queue.error) === 403) return <Navigate to="/not-authorized" replace />;

  const tabs: Array<[Tab, string, number | undefined]> = [
    ['reports', t`Reports`, queue.data?.length],
    ['appeals', t`Appeals`, appeals.data?.length],
    ['support', t`Support`, support.data?.length],
  ];
  return (
    <main id="main" className="min-h-frame bg-slate-50">
      <DocumentTitle title={t`Moderation · Parley`} />
      <div className="mx-auto max-w-7xl px-4 py-6 sm:px-6">
        <h1 className="text-2xl font-bold text-slate-950">
          <Trans>Moderation</Trans>
        </h1>
        <Tabs value={tab} onValueChange={(v) => setTab(v as Tab)} className="mt-4">
          <TabsList aria-label={t`Queues`}>
            {tabs.map(([id, label, n]) => (
              <TabsTrigger key={id} value={id}>
                {n === undefined ? label : t`${label} (${n})`}
              </TabsTrigger>
            ))}
          </TabsList>
          <TabsContent value="reports">
            <div className="grid gap-4 lg:grid-cols-[22rem_minmax(0,1fr)]">
              <ul aria-label={t`Reported people`} className="grid content-start gap-2">
                {queue.data?.length === 0 && (
                  <li className="rounded-xl bg-white p-4 text-slate-700 ring-1 ring-slate-200">
                    <Trans>No open reports. Well done, everyone.</Trans>
                  </li>
                )}
                {queue.data?.map((e) => (
                  <li key={e.user.userId}>
                    <button
                      type="button"
                      aria-current={selected === e.user.userId}
                      onClick={() => setSelected(e.user.userId)}
                      className={`w-full rounded-xl bg-white p-3 text-start ring-1 ${selected === e.user.userId ? 'ring-2 ring-indigo-700' : 'ring-slate-200'} ${focusRing}`}
                    >
                      <span className="block font-semibold text-slate-950">{e.user.username}</span>
                      <span className="block text-sm text-slate-700">
                        <ReportCount reports={e.openReports} reporters={e.reporters} /> · <Latest iso={e.latestAt} />
                      </span>
                      <span className="block text-sm text-slate-700">
                        <Weight weight={e.weight} />
                      </span>
                      <span className="block text-sm text-slate-700">{e.reasons.map((r) => reasonLabel(r)).join(', ')}</span>
                    </button>
                  </li>
                ))}
              </ul>
              {selected ? (
                <CaseView userId={selected} onDecided={() => void queue.refetch()} />
              ) : (
                <p className="text-slate-700">
                  <Trans>Choose a person to see their reports and history.</Trans>
                </p>
              )}
            </div>
          </TabsContent>
          <TabsContent value="appeals">
            <AppealsQueue appeals={appeals.data ?? []} onDecided={() => void appeals.refetch()} />
          </TabsContent>
          <TabsContent value="support">
            <SupportQueue items={support.data ?? []} onHandled={() => void support.refetch()} />
          </TabsContent>
        </Tabs>
      </div>
    </main>
  );
}

const WATCH = 'moderation:watch';

/** "3 reports from 2 people". */
function ReportCount({ reports, reporters }: { reports: number; reporters: number }) {
  return (
    <>
      <Plural value={reports} one="# report" other="# reports" /> <Plural value={reporters} one="from # person" other="from # people" />
    </>
  );
}

function Latest({ iso }: { iso: string }) {
  const date = <When iso={iso} dateStyle="short" />;
  return <Trans>latest {date}</Trans>;
}

/** A person's reports' weight, against the threshold that sends them to review. */
function Weight({ weight }: { weight: number }) {
  const shown = weightLabel(weight);
  const reporters = SHADOW_QUEUE_REPORTERS;
  return (
    <Trans>
      Weight {shown} (review from {reporters} within a day)
    </Trans>
  );
}
