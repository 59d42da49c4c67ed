import { Suspense, useMemo, useState } from 'react';
import { Link, Outlet, useLocation } from 'react-router-dom';
import { Avatar } from '../../components/Avatar';
import { FullScreenSpinner } from '../../components/FullScreenSpinner';
import { InstallButton } from '../../components/InstallButton';
import { LogoMark } from '../../components/layout/Logo';
import { FrameContext, type FrameControls } from '../../components/layout/frameContext';
import { CountBadge } from '../../components/ui/Badge';
import { Button } from '../../components/ui/Button';
import { focusRing } from '../../components/ui/buttonStyles';
import { AskDialogHost } from '../../components/ui/ConfirmDialog';
import { NotificationBell } from '../../features/notifications/NotificationBell';
import { FocusReporter } from '../../features/notifications/FocusReporter';
import { NotificationToasts } from '../../features/notifications/NotificationToasts';
import { useFriendsChangedSync } from '../../features/people/useFriendsChangedSync';
import { AccountLanguageSync } from '../../features/people/settings/LanguageSetting';
import { TranslateContext } from '../../components/conversation/translation';
import { useTranslator } from '../../store/api';
import { ProfileMenu } from './ProfileMenu';
import { IMMERSIVE_PATHS, PLACES, placeOf, type PlaceId } from './places';
import { PlaceIcon } from './PlaceIcon';
import { useFrameData } from './useFrameData';
import { Trans, useLingui } from '@lingui/react/macro';

type FrameData = ReturnType<typeof useFrameData>;

/**
 * The frame of every signed-in page: the top bar (home, the bell, the account menu), and the
 * app's places as bottom tabs on a phone or a sidebar on a wider screen, with unread counts;
 * toasts for what arrives meanwhile, and the dialogs any page may ask (ask()). The
 * 1:1 chats open full screen with one button back (FrameToggle); "Full screen" there collapses it again.
 */
export default function SignedInFrame() {
  const { pathname } = useLocation();
  const data = useFrameData();
  const immersive = IMMERSIVE_PATHS.includes(pathname);
  // Expanding is for the page it was asked on: the next visit to a chat opens full screen again.
  const [expandedOn, setExpandedOn] = useState<string | null>(null);
  const collapsed = immersive && expandedOn !== pathname;
  const controls = useMemo<FrameControls>(() => ({ collapsed, expand: () => setExpandedOn(pathname) }), [collapsed, pathname]);
  const here = placeOf(pathname);
  useFriendsChangedSync();
  const translator = useTranslator();

  return (
    <FrameContext.Provider value={controls}>
      <TranslateContext.Provider value={translator}>
        <AccountLanguageSync />
        {/* Every signed-in page says what it shows (the dashboard too): a conversation left behind is not "looked at" any more. */}
        <FocusReporter />
        <NotificationToasts />
        <AskDialogHost />
        <div data-frame={collapsed ? 'collapsed' : 'open'} className="min-h-dvh bg-canvas text-fg">
          {!collapsed && (
            <>
              <TopBar onCollapse={immersive ? () => setExpandedOn(null) : undefined} />
              <Sidebar here={here} data={data} pathname={pathname} />
              <TabBar here={here} data={data} />
            </>
          )}
          <div className="pb-(--frame-bottom) ps-(--frame-left)">
            <Suspense fallback={<FullScreenSpinner />}>
              <Outlet />
            </Suspense>
          </div>
        </div>
      </TranslateContext.Provider>
    </FrameContext.Provider>
  );
}

function TopBar({ onCollapse }: { onCollapse?: (() => void) | undefined }) {
  return (
    <header className="sticky top-0 z-40 flex h-frame-top items-center gap-2 border-b border-line bg-surface/95 px-3 backdrop-blur sm:px-4">
      <Link to="/dashboard" className={`me-auto flex items-center gap-2 rounded-control text-title font-bold text-fg ${focusRing}`}>
        <LogoMark />
        Parley
      </Link>
      <InstallButton />
      {onCollapse && (
        <Button variant="ghost" size="sm" onClick={onCollapse}>
          <Trans>Full screen</Trans>
        </Button>
      )}
      <NotificationBell />
      <ProfileMenu />
    </header>
  );
}

const count = (id: PlaceId, data: FrameData) => (id === 'messages' ? data.unread.messages : id === 'rooms' ? data.unread.rooms : 0);

/** Phones (≤ 768 px): the five places along the bottom, thumb-reachable. */
function TabBar({ here, data }: { here: PlaceId | null; data: FrameData }) {
  const { i18n, t } = useLingui();
  return (
    <nav
      aria-label={t`Main`}
      className="fixed inset-x-0 bottom-0 z-40 border-t border-line bg-surface pb-[env(safe-area-inset-bottom)] min-[769px]:hidden"
    >
      <ul className="grid h-frame-tabs grid-cols-5">
        {PLACES.map((p) => (
          <li key={p.id} className="flex">
            <Link
              to={p.to}
              aria-current={here === p.id ? 'page' : undefined}
              className={`relative flex flex-1 flex-col items-center justify-center gap-0.5 text-caption font-semibold ${
                here === p.id ? 'text-accent-text' : 'text-fg-muted'
              } ${focusRing} focus-visible:-outline-offset-2`}
            >
              <PlaceIcon d={p.icon} />
              {i18n._(p.label)}
              <CountBadge count={count(p.id, data)} className="absolute top-1.5 start-1/2 ms-1" />
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

const sideLink = (active: boolean) =>
  `flex min-h-10 items-center gap-3 rounded-control px-3 py-2 text-body-sm font-semibold ${
    active ? 'bg-accent-soft text-accent-text' : 'text-fg-muted hover:bg-surface-hover hover:text-fg'
  } ${focusRing}`;

/** Wider screens: the places, then the user's rooms and their latest conversations. */
function Sidebar({ here, data, pathname }: { here: PlaceId | null; data: FrameData; pathname: string }) {
  const { i18n, t } = useLingui();
  return (
    <nav
      aria-label={t`Main`}
      className="fixed top-frame-top bottom-0 start-0 z-30 hidden w-frame-side overflow-y-auto border-e border-line bg-surface px-3 py-4 min-[769px]:block"
    >
      <ul className="grid gap-1">
        {PLACES.map((p) => (
          <li key={p.id}>
            <Link to={p.to} aria-current={here === p.id ? 'page' : undefined} className={sideLink(here === p.id)}>
              <PlaceIcon d={p.icon} className="size-5" />
              <span className="flex-1">{i18n._(p.label)}</span>
              <CountBadge count={count(p.id, data)} />
            </Link>
          </li>
        ))}
      </ul>
      <SideSection title={t`Your rooms`} empty={t`Rooms you join show here.`} more={{ to: '/groupchat', label: t`All rooms` }}>
        {data.rooms.map((r) => {
          const to = `/groupchat/${encodeURIComponent(r.roomId)}`;
          return (
            <li key={r.roomId}>
              <Link to={to} aria-current={pathname === to ? 'page' : undefined} className={sideLink(pathname === to)}>
                <span aria-hidden="true" className="text-fg-subtle">
                  #
                </span>
                <span className="min-w-0 flex-1 truncate">{r.name}</span>
                <CountBadge count={r.unread} />
              </Link>
            </li>
          );
        })}
      </SideSection>
      <SideSection
        title={t`Direct messages`}
        empty={t`Conversations with friends show here.`}
        more={{ to: '/messages', label: t`All messages` }}
        also={{ to: '/search', label: t`Search messages` }}
      >
        {data.conversations.map((c) => {
          const to = `/messages/${encodeURIComponent(c.username)}`;
          return (
            <li key={c.roomId}>
              <Link to={to} aria-current={pathname === to ? 'page' : undefined} className={sideLink(pathname === to)}>
                <Avatar name={c.username} src={c.avatar || null} size={24} />
                <span className="min-w-0 flex-1 truncate">{c.username}</span>
                <CountBadge count={c.unread} />
              </Link>
            </li>
          );
        })}
      </SideSection>
    </nav>
  );
}

function SideSection({
  title,
  empty,
  more,
  also,
  children,
}: {
  title: string;
  empty: string;
  more: { to: string; label: string };
  /** A second way on from the section (searching its messages). */
  also?: { to: string; label: string };
  children: React.ReactNode[];
}) {
  return (
    // Not a region: its heading names it, and the page's own regions keep their names unique.
    <div className="mt-6">
      <h2 className="px-3 text-caption font-bold tracking-wide text-fg-subtle uppercase">{title}</h2>
      {children.length === 0 ? (
        <p className="px-3 pt-1 text-body-sm text-fg-subtle">{empty}</p>
      ) : (
        <ul className="mt-1 grid gap-0.5">{children}</ul>
      )}
      {[more, ...(also ? [also] : [])].map((l) => (
        <Link
          key={l.to}
          to={l.to}
          className={`mt-1 block rounded-control px-3 py-1.5 text-body-sm font-medium text-accent-text hover:underline ${focusRing}`}
        >
          {l.label}
        </Link>
      ))}
    </div>
  );
}
