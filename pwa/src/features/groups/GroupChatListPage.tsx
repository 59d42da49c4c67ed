import { useDeferredValue, useState } from 'react';
import { Link } from 'react-router-dom';
import { GROUP_CATEGORIES, type GroupSummary } from '@parley/contract/groups';
import { DocumentTitle } from '../../components/DocumentTitle';
import { buttonClass, focusRing } from '../../components/ui/buttonStyles';
import { SelectField, TextField } from '../../components/ui/Field';
import { Card } from '../../components/ui/Card';
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
    <main id="main" className="min-h-frame bg-canvas">
      <DocumentTitle title={t`Group chat · Parley`} />
      <PageHeader back="/dashboard" backLabel={t`Dashboard`} title={t`Group chat`}>
        <button
          type="button"
          aria-expanded={creating}
          aria-controls="create-room"
          onClick={() => setCreating(!creating)}
          className={buttonClass('primary', 'sm')}
        >
          {creating ? t`Close` : t`Create a room`}
        </button>
      </PageHeader>
      <div className="mx-auto grid max-w-7xl gap-6 p-3 sm:p-6">
        {creating && (
          <Card as="section" id="create-room" aria-labelledby="create-room-title">
            <h2 id="create-room-title" className="mb-3 text-title font-bold text-fg">
              <Trans>Create a room</Trans>
            </h2>
            <CreateRoomForm />
          </Card>
        )}
        <div className="grid gap-3 sm:grid-cols-[1fr_14rem_14rem]">
          <TextField id="room-search" label={t`Search rooms`} type="search" value={search} onChange={(e) => setSearch(e.target.value)} />
          <SelectField id="room-category" label={t`Show category`} value={category} onChange={(e) => setCategory(e.target.value)}>
            <option value="">{t`All categories`}</option>
            {GROUP_CATEGORIES.map((c) => (
              <option key={c} value={c}>
                {categoryName(c)}
              </option>
            ))}
          </SelectField>
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
        {mine.length > 0 && <RoomSection id="rooms-yours" title={t`Your rooms`} rooms={mine} wide />}
        {/* On a wide screen the categories stand side by side: a category holds a room or two. */}
        <div className="grid items-start gap-6 md:grid-cols-2 xl:grid-cols-3">
          {byCategory.map(([c, list]) => (
            <RoomSection key={c} id={`rooms-${c.replace(/\W+/g, '-').toLowerCase()}`} title={categoryName(c)} rooms={list} />
          ))}
        </div>
      </div>
    </main>
  );
}

function RoomSection({ id, title, rooms, wide = false }: { id: string; title: string; rooms: GroupSummary[]; wide?: boolean }) {
  const { i18n, t } = useLingui();
  return (
    <section aria-labelledby={id}>
      <h2 id={id} className="mb-2 text-base font-bold text-slate-900">
        {title}
      </h2>
      <ul className={`grid gap-3 ${wide ? 'sm:grid-cols-2 xl:grid-cols-3' : ''}`}>
        {rooms.map((r) => (
          <li key={r.roomId}>
            <Link
              to={`/groupchat/${r.roomId}`}
              className={`block h-full rounded-card border border-line bg-surface p-4 shadow-raised hover:border-accent-text ${focusRing}`}
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
