import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import type { AppNotification } from '@parley/contract/notifications';
import { focusRing } from '../../components/ui/buttonStyles';
import {
  useGetNotificationsQuery,
  useLazyGetNotificationsQuery,
  useMarkAllNotificationsReadMutation,
  useMarkNotificationsReadMutation,
} from './notificationsApi';
import { Trans, useLingui } from '@lingui/react/macro';

/** The bell in the top bar: the unread count, and a panel of notifications (newest first, more on request). */
export function NotificationBell() {
  const { data } = useGetNotificationsQuery();
  const [loadMore, older] = useLazyGetNotificationsQuery();
  const [markRead] = useMarkNotificationsReadMutation();
  const [markAll, { isLoading: markingAll }] = useMarkAllNotificationsReadMutation();
  const [open, setOpen] = useState(false);
  const [extra, setExtra] = useState<AppNotification[]>([]);
  const panelId = useId();
  const wrapper = useRef<HTMLDivElement>(null);
  const unread = data?.unread ?? 0;
  const { i18n, t } = useLingui();
  const list = [...(data?.notificationList ?? []), ...extra];
  const nextBefore = older.data ? older.data.nextBefore : data?.nextBefore;

  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && setOpen(false);
    const onClick = (e: MouseEvent) => !wrapper.current?.contains(e.target as Node) && setOpen(false);
    document.addEventListener('keydown', onKey);
    document.addEventListener('mousedown', onClick);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('mousedown', onClick);
    };
  }, [open]);

  async function more() {
    if (!nextBefore) return;
    const page = await loadMore(nextBefore).unwrap();
    setExtra((e) => [...e, ...page.notificationList]);
  }

  return (
    <div ref={wrapper} className="relative">
      <button
        type="button"
        aria-expanded={open}
        aria-controls={panelId}
        aria-label={unread ? t`Notifications, ${unread} unread` : t`Notifications`}
        onClick={() => setOpen((o) => !o)}
        className={`relative inline-flex size-11 items-center justify-center rounded-full text-slate-800 hover:bg-slate-100 ${focusRing}`}
      >
        <svg aria-hidden="true" viewBox="0 0 24 24" className="size-6" fill="none" stroke="currentColor" strokeWidth="2">
          <path d="M6 8a6 6 0 1 1 12 0c0 7 3 9 3 9H3s3-2 3-9M10.3 21a1.94 1.94 0 0 0 3.4 0" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
        {unread > 0 && (
          <span
            data-testid="unread-count"
            className="absolute top-0.5 end-0.5 min-w-5 rounded-full bg-red-700 px-1 text-center text-xs leading-5 font-bold text-white"
          >
            {unread > 99 ? '99+' : unread}
          </span>
        )}
      </button>
      {open && (
        <div
          id={panelId}
          role="region"
          aria-label={t`Notifications`}
          className="fixed inset-x-2 top-16 z-50 max-h-[70dvh] overflow-y-auto rounded-2xl border border-slate-200 bg-white p-3 shadow-xl sm:absolute sm:inset-x-auto sm:top-12 sm:end-0 sm:w-96"
        >
          <div className="mb-2 flex items-center justify-between gap-2">
            <h2 className="text-base font-bold text-slate-900">
              <Trans>Notifications</Trans>
            </h2>
            <button
              type="button"
              disabled={markingAll || unread === 0}
              onClick={() => void markAll()}
              className={`rounded-lg px-2 py-1 text-sm font-semibold text-indigo-700 hover:bg-indigo-50 disabled:text-slate-500 ${focusRing}`}
            >
              <Trans>Mark all read</Trans>
            </button>
          </div>
          {list.length === 0 ? (
            <p className="py-6 text-center text-sm text-slate-700">
              <Trans>Nothing yet. Friend requests and messages will show up here.</Trans>
            </p>
          ) : (
            <ul className="grid gap-1">
              {list.map((n) => (
                <li key={n.notificationId}>
                  <Link
                    to={n.link}
                    onClick={() => {
                      setOpen(false);
                      if (!n.read) void markRead([n.notificationId]);
                    }}
                    className={`block rounded-lg px-3 py-2 hover:bg-slate-100 ${n.read ? 'text-slate-700' : 'bg-indigo-50 font-semibold text-slate-900'} ${focusRing}`}
                  >
                    <span className="block break-words">
                      {n.text}
                      {n.count > 1 && <span className="font-normal text-slate-700"> {t`(+${n.count - 1} more)`}</span>}
                    </span>
                    <span className="block text-xs font-normal text-slate-600">
                      {!n.read && <span className="sr-only">{t`Unread.`} </span>}
                      {i18n.date(new Date(n.createdAt), { dateStyle: 'short', timeStyle: 'short' })}
                    </span>
                  </Link>
                </li>
              ))}
            </ul>
          )}
          {nextBefore && (
            <button
              type="button"
              onClick={() => void more()}
              className={`mt-2 w-full rounded-lg py-2 text-sm font-semibold text-indigo-700 hover:bg-indigo-50 ${focusRing}`}
            >
              <Trans>Show older</Trans>
            </button>
          )}
        </div>
      )}
    </div>
  );
}
