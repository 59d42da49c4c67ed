import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { LIVE_CATEGORIES, type LiveStream } from '@parley/contract/live';
import { DocumentTitle } from '../../components/DocumentTitle';
import { focusRing } from '../../components/ui/buttonStyles';
import { Avatar } from '../../components/Avatar';
import { useLiveStreamsQuery, useThumbnailQuery } from './liveApi';
import { GoLivePanel } from './GoLivePanel';
import { timeLive } from './timeLive';
import { categoryName } from '../../lib/categoryNames';
import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';

/** The list refreshes itself this often: new streams, counts and pictures. */
const LIST_REFRESH_MS = 15_000;

/** `/livestream`: who is live now, the most watched first, with categories and search; and going live. */
export default function LiveListPage() {
  const { t } = useLingui();
  const [category, setCategory] = useState('');
  const [q, setQ] = useState('');
  const [goingLive, setGoingLive] = useState(false);
  const list = useLiveStreamsQuery(
    { ...(category && { category }), ...(q.trim() && { q: q.trim() }) },
    { pollingInterval: LIST_REFRESH_MS, refetchOnMountOrArgChange: true },
  );
  const streams = list.data?.streams ?? [];
  return (
    <main id="main" className="min-h-frame bg-slate-50">
      <DocumentTitle title={t`Live streams · Parley`} />
      <div className="mx-auto max-w-6xl px-4 py-6 sm:px-6">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h1 className="text-3xl font-bold tracking-tight text-slate-950">
            <Trans>Live now</Trans>
          </h1>
          {!goingLive && (
            <button
              type="button"
              onClick={() => setGoingLive(true)}
              className={`min-h-11 rounded-lg bg-red-700 px-4 font-semibold text-white hover:bg-red-800 ${focusRing}`}
            >
              <Trans>Go live</Trans>
            </button>
          )}
        </div>
        {goingLive && (
          <div className="mt-4">
            <GoLivePanel onCancel={() => setGoingLive(false)} />
          </div>
        )}
        <div className="mt-4 flex flex-wrap gap-3">
          <label className="grow text-sm font-medium text-slate-800" htmlFor="live-search">
            <Trans>Search streams</Trans>
            <input
              id="live-search"
              type="search"
              value={q}
              onChange={(e) => setQ(e.target.value)}
              placeholder={t`Title or name`}
              className={`mt-1 block min-h-11 w-full rounded-lg border border-slate-300 px-3 ${focusRing}`}
            />
          </label>
          <label className="text-sm font-medium text-slate-800" htmlFor="live-filter">
            <Trans>Filter by category</Trans>
            <select
              id="live-filter"
              value={category}
              onChange={(e) => setCategory(e.target.value)}
              className={`mt-1 block min-h-11 rounded-lg border border-slate-300 px-3 ${focusRing}`}
            >
              <option value="">{t`All categories`}</option>
              {LIVE_CATEGORIES.map((c) => (
                <option key={c} value={c}>
                  {categoryName(c)}
                </option>
              ))}
            </select>
          </label>
        </div>
        {list.isError && (
          <p role="alert" className="mt-6 text-red-800">
            <Trans>We could not load the streams. Check your connection; the list will try again by itself.</Trans>
          </p>
        )}
        {list.isSuccess && streams.length === 0 && (
          <p className="mt-8 text-slate-700">
            <Trans>Nobody is live here right now. Go live and be the first.</Trans>
          </p>
        )}
        <ul className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-3" aria-label={t`Live streams`}>
          {streams.map((s) => (
            <StreamCard key={s.roomId} stream={s} />
          ))}
        </ul>
      </div>
    </main>
  );
}

function StreamCard({ stream }: { stream: LiveStream }) {
  const { i18n, t } = useLingui();
  const picture = useThumbnailQuery(stream.roomId, { skip: !stream.hasThumbnail, pollingInterval: 30_000 });
  const [, tick] = useState(0);
  useEffect(() => {
    const t = setInterval(() => tick((n) => n + 1), 30_000);
    return () => clearInterval(t);
  }, []);
  return (
    <li>
      <Link
        to={`/livestream/${stream.roomId}`}
        className={`block overflow-hidden rounded-xl border border-slate-200 bg-white shadow-sm hover:shadow ${focusRing}`}
      >
        <div className="relative aspect-video bg-slate-800">
          {picture.data && <img src={picture.data} alt="" className="h-full w-full object-cover" />}
          <span className="absolute start-2 top-2 rounded bg-red-700 px-1.5 py-0.5 text-xs font-bold text-white">
            <Trans>LIVE</Trans>
          </span>
          <span className="absolute bottom-2 start-2 rounded bg-black/75 px-1.5 py-0.5 text-xs text-white" data-testid="card-viewers">
            {t`${plural(stream.viewers, { 0: 'nobody watching yet', one: '# watching', other: '# watching' })}`}
          </span>
          <span className="absolute bottom-2 end-2 rounded bg-black/75 px-1.5 py-0.5 text-xs text-white">
            {timeLive(stream.startedAt, i18n)}
          </span>
        </div>
        <div className="flex gap-3 p-3">
          <Avatar src={stream.broadcaster.avatar} name={stream.broadcaster.username} />
          <div className="min-w-0">
            <p className="truncate font-semibold text-slate-900">{stream.title}</p>
            <p className="truncate text-sm text-slate-700">
              {stream.broadcaster.username} · {categoryName(stream.category)}
            </p>
          </div>
        </div>
      </Link>
    </li>
  );
}
