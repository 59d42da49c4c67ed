import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { focusRing } from '../../components/ui/buttonStyles';
import { durationInWords } from '../../lib/i18n/duration';
import { useLiveSummaryQuery } from './liveApi';

/** The summary is kept as the stream ends; a page that heard of the end first asks again after this long. */
const RETRY_MS = 1_500;
const RETRIES = 3;

/** What the server counted while the broadcaster's stream ran, and the way to its record. */
export function StreamSummary({ roomId }: { roomId: string }) {
  const { i18n, t } = useLingui();
  const { data, isError, isFetching, refetch } = useLiveSummaryQuery(roomId);
  const [tries, setTries] = useState(0);
  useEffect(() => {
    if (!isError || isFetching || tries >= RETRIES) return;
    const timer = setTimeout(() => {
      setTries((n) => n + 1);
      void refetch();
    }, RETRY_MS);
    return () => clearTimeout(timer);
  }, [isError, isFetching, refetch, tries]);

  const record = (
    <Link to={`/livestream/${encodeURIComponent(roomId)}/record`} className={`font-semibold text-indigo-800 underline ${focusRing}`}>
      <Trans>See the moderation record</Trans>
    </Link>
  );
  if (!data)
    return (
      <div className="mx-auto mt-6 grid max-w-md gap-2">
        {isError ? (
          <p role="alert">
            <Trans>We could not load your stream’s summary.</Trans>
          </p>
        ) : (
          <p>
            <Trans>Loading your stream’s summary…</Trans>
          </p>
        )}
        <p>{record}</p>
      </div>
    );

  const rows: Array<[string, string]> = [
    [t`Duration`, durationInWords(data.endedAt - data.startedAt, i18n)],
    [t`Most viewers at once`, i18n.number(data.peakViewers)],
    [t`Viewers in all`, i18n.number(data.totalViewers)],
    [t`Chat messages`, i18n.number(data.messages)],
    [
      t`Gifts received`,
      t`${plural(data.gifts, { one: '# gift', other: '# gifts' })}, ${plural(data.gold, { one: '# gold', other: '# gold' })}`,
    ],
    [t`New followers`, i18n.number(data.newFollowers)],
  ];
  return (
    <section
      aria-labelledby="stream-summary"
      className="mx-auto mt-6 grid max-w-md gap-3 rounded-xl bg-white p-4 text-start shadow-sm"
      data-testid="stream-summary"
    >
      <h2 id="stream-summary" className="text-lg font-bold text-slate-900">
        <Trans>Your stream in numbers</Trans>
      </h2>
      <dl className="grid grid-cols-[1fr_auto] gap-x-4 gap-y-1">
        {rows.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-slate-700">{label}</dt>
            <dd className="text-end font-semibold text-slate-900">{value}</dd>
          </div>
        ))}
      </dl>
      <p>{record}</p>
    </section>
  );
}
