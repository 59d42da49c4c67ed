import { useDeferredValue, useState } from 'react';
import { Link } from 'react-router-dom';
import { GROUP_CATEGORIES, type GroupSummary } from '@parley/contract/groups';
import { DocumentTitle } from '../../components/DocumentTitle';
import { focusRing, inputClass } from '../../components/FormField';
import { describeApiError } from '../../lib/apiError';
import { useGroupsQuery } from './groupChatApi';
import { RoomLanguageSelect } from './RoomLanguageSelect';
import { CreateRoomForm } from './CreateRoomForm';
import { EmptyState } from '../../components/ui/EmptyState';
import { PageHeader } from '../../components/ui/PageHeader';
import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { categoryName } from '../../lib/categoryNames';

/** How long ago a room was active, in the interface language's words (Intl; the pseudo-locale as English). */
function activeWhen(at: number, locale: string): string {
  const ago = new Intl.RelativeTimeFormat(locale === 'en-XA' ? 'en' : locale, { numeric: 'auto' });
  const min = Math.round((at - Date.now()) / 60_000);
  if (min > -60) return ago.format(min, 'minute');
  if (min > -48 * 60) return ago.format(Math.round(min / 60), 'hour');
  return ago.format(Math.round(min / 1440), 'day');
}

/** /groupchat: rooms by category, search, and creating a room. */
export default function GroupChatListPage() {
  const { t } = useLingui();
  const [category, setCategory] = useState('');
  const [language, setLanguage] = useState('');
  const [search, setSearch] = useState('');
  const q = useDeferredValue(search.trim());
  const [creating, setCreating] = useState(false);
  const { data, error, isLoading } = useGroupsQuery(
    { ...(category && { category }), ...(q && { q }), ...(language && { language }) },
    { pollingInterval: 30_000 },
  );
  const rooms = data?.rooms ?? [];
  const mine = rooms.filter((r) => r.member);
  const byCategory = GROUP_CATEGORIES.map((c) => [c, rooms.filter((r) => !r.member && r.category === c)] as const).filter(
    ([, list]) => list.length,
  );

  return (
    <main id="main" className="min-h-frame bg-slate-50">
      <DocumentTitle title={t`Group chat · Parley`} />
      <PageHeader back="/dashboard" backLabel={t`Dashboard`} title={t`Group chat`}>
        <button
          type="button"
          aria-expanded={creating}
          aria-controls="create-room"
          onClick={() => setCreating(!creating)}
          className={`rounded-lg bg-indigo-700 px-4 py-2 text-sm font-semibold text-white hover:bg-indigo-800 ${focusRing}`}
        >
          {creating ? t`Close` : t`Create a room`}
        </button>
      </PageHeader>
      <div className="mx-auto grid max-w-5xl gap-6 p-3 sm:p-6">
        {creating && (
          <section id="create-room" aria-labelledby="create-room-title" className="rounded-xl border border-slate-200 bg-white p-4">
            <h2 id="create-room-title" className="mb-3 text-lg font-bold text-slate-900">
              <Trans>Create a room</Trans>
            </h2>
            <CreateRoomForm />
          </section>
        )}
        <div className="grid gap-3 sm:grid-cols-[1fr_14rem_14rem]">
          <div className="grid gap-1">
            <label htmlFor="room-search" className="text-sm font-medium text-slate-800">
              <Trans>Search rooms</Trans>
            </label>
            <input id="room-search" type="search" value={search} onChange={(e) => setSearch(e.target.value)} className={inputClass} />
          </div>
          <div className="grid gap-1">
            <label htmlFor="room-category" className="text-sm font-medium text-slate-800">
              <Trans>Show category</Trans>
            </label>
            <select id="room-category" value={category} onChange={(e) => setCategory(e.target.value)} className={inputClass}>
              <option value="">{t`All categories`}</option>
              {GROUP_CATEGORIES.map((c) => (
                <option key={c} value={c}>
                  {categoryName(c)}
                </option>
              ))}
            </select>
          </div>
          <RoomLanguageSelect value={language} mine={language === '' ? (data?.languages ?? []) : []} onChange={setLanguage} />
        </div>
        {isLoading && (
          <p role="status">
            <Trans>Loading rooms…</Trans>
          </p>
        )}
        {error && (
          <p role="alert" className="text-red-700">
            {describeApiError(error, t`The rooms could not be loaded. Please try again.`)}
          </p>
        )}
        {!isLoading && !error && rooms.length === 0 && (
          <EmptyState>
            <Trans>No rooms match. Create one!</Trans>
          </EmptyState>
        )}
        {mine.length > 0 && <RoomSection id="rooms-yours" title={t`Your rooms`} rooms={mine} />}
        {byCategory.map(([c, list]) => (
          <RoomSection key={c} id={`rooms-${c.replace(/\W+/g, '-').toLowerCase()}`} title={categoryName(c)} rooms={list} />
        ))}
      </div>
    </main>
  );
}

function RoomSection({ id, title, rooms }: { id: string; title: string; rooms: GroupSummary[] }) {
  const { i18n, t } = useLingui();
  return (
    <section aria-labelledby={id}>
      <h2 id={id} className="mb-2 text-base font-bold text-slate-900">
        {title}
      </h2>
      <ul className="grid gap-3 sm:grid-cols-2">
        {rooms.map((r) => (
          <li key={r.roomId}>
            <Link
              to={`/groupchat/${r.roomId}`}
              className={`block h-full rounded-xl border border-slate-200 bg-white p-4 hover:border-indigo-400 ${focusRing}`}
            >
              <p className="flex items-center justify-between gap-2">
                <span className="font-semibold text-slate-900">{r.name}</span>
                {r.unread > 0 && (
                  <span className="rounded-full bg-indigo-700 px-2 py-0.5 text-xs font-bold text-white">
                    {r.unread > 99 ? t`99+ unread` : t`${plural(r.unread, { one: '# unread', other: '# unread' })}`}
                  </span>
                )}
              </p>
              {r.description && <p className="mt-1 line-clamp-2 text-sm text-slate-700">{r.description}</p>}
              <p className="mt-2 flex flex-wrap gap-x-3 text-xs text-slate-600">
                <span>{r.official ? t`Official` : t`by ${r.owner}`}</span>
                <span>
                  {r.peopleInRoom === 0 ? t`Nobody here now` : t`${plural(r.peopleInRoom, { one: '# here now', other: '# here now' })}`}
                </span>
                <span>{t`${plural(r.members, { one: '# member', other: '# members' })}`}</span>
                <span>
                  {r.lastActivityAt === null ? (
                    <Trans>No messages yet</Trans>
                  ) : (
                    <Trans>
                      Active <time dateTime={new Date(r.lastActivityAt).toISOString()}>{activeWhen(r.lastActivityAt, i18n.locale)}</time>
                    </Trans>
                  )}
                </span>
                {r.visibility === 'invite' && (
                  <span>
                    <Trans>Invite-only</Trans>
                  </span>
                )}
              </p>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
