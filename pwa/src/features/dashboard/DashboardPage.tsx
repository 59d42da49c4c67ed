import { Suspense, useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import type { I18n, MessageDescriptor } from '@lingui/core';
import { useAppSelector, useCurrentUser, useIsSignedIn, useSessionStatus } from '../../store/hooks';
import { Avatar } from '../../components/Avatar';
import { focusRing } from '../../components/ui/buttonStyles';
import { InstallButton } from '../../components/InstallButton';
import { OfflineBanner } from '../../components/OfflineBanner';
import { AppHeader } from '../../components/layout/AppHeader';
import { DocumentTitle } from '../../components/DocumentTitle';
import type { ReturnToState } from '../../lib/returnTo';
import { useOnlinePresence, useSocketStatus } from '../../realtime/socket';
import { isFirstVisit, rememberVisit } from './firstVisit';
import type { DashboardSection } from './sections';
import { Plural, Trans, useLingui } from '@lingui/react/macro';

export type { DashboardSection } from './sections';

/** The text chat that starts searching as it opens. */
const TEXT_CHAT_NOW = { pathname: '/textchat', search: '?start=1' };

const startButton = `flex min-h-16 items-center gap-4 rounded-2xl px-5 py-4 text-start shadow-sm transition ${focusRing}`;

const icons = {
  text: 'M4 5h16v10H8l-4 4z',
  video: 'M3 7h12v10H3zM15 10l6-3v10l-6-3',
};

const words = (i18n: I18n, m: string | MessageDescriptor) => (typeof m === 'string' ? m : i18n._(m));

function Icon({ d }: { d: string }) {
  return (
    <svg
      viewBox="0 0 24 24"
      className="size-7 shrink-0"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
    >
      <path d={d} />
    </svg>
  );
}

/**
 * The home after sign-in: a greeting that knows a first visit from a return, who is online now,
 * the two ways into a conversation, and the sections the app hands in (friends online, unread
 * messages, missions, live now…), each working or saying honestly that it is coming. Offline it
 * shows the signed-in state this device saved, and says that the sections could not be loaded
 * (never an empty list that is not known to be empty). Visitors see the way in.
 */
export default function DashboardPage({ sections = [] }: { sections?: readonly DashboardSection[] }) {
  const user = useCurrentUser();
  const signedIn = useIsSignedIn();
  const session = useSessionStatus();
  const savedProfile = useAppSelector((s) => s.profile);
  const { t } = useLingui();
  const offline = session === 'unreachable';
  // Offline at start the session cannot be checked: the signed-in state this device saved is shown.
  const savedSignedIn = offline && savedProfile.username !== '';
  const member = signedIn || savedSignedIn;
  const name = signedIn ? user!.username : savedSignedIn ? savedProfile.username : null;
  const avatar = signedIn ? user!.avatar : savedProfile.avatar;

  return (
    <div className="min-h-frame bg-slate-50">
      <DocumentTitle title={t`Dashboard · Parley`} />
      <OfflineBanner forceShow={offline} />
      {/* Signed in, the app's frame is the header (its account menu signs out). */}
      {!signedIn && (
        <AppHeader>
          <InstallButton />
          {!member && session !== 'restoring' && (
            <Link
              to="/login"
              className={`rounded-lg border border-slate-400 px-3 py-2 text-sm font-semibold text-slate-800 hover:bg-slate-100 ${focusRing}`}
            >
              <Trans>Log in</Trans>
            </Link>
          )}
        </AppHeader>
      )}
      <main id="main" className="mx-auto grid max-w-5xl gap-8 px-4 py-6 sm:py-8">
        {session === 'restoring' ? (
          <p role="status" className="text-slate-700">
            <Trans>Loading Content...</Trans>
          </p>
        ) : member ? (
          <>
            <Greeting userId={signedIn ? user!.userId : null} name={name!} avatar={avatar} />
            <StartChats to={{ text: TEXT_CHAT_NOW, video: { pathname: '/videochat' } }} />
            <Sections sections={sections} offline={offline} />
          </>
        ) : (
          <>
            <div>
              <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">
                <Trans>Welcome to Parley</Trans>
              </h1>
              <p className="mt-1 text-slate-700">
                <Trans>
                  Create a free account in a few seconds to start meeting people, or{' '}
                  <Link to="/login" className={`font-semibold text-indigo-700 underline ${focusRing}`}>
                    log in
                  </Link>
                  .
                </Trans>
              </p>
            </div>
            <StartChats visitor to={{ text: TEXT_CHAT_NOW, video: { pathname: '/videochat' } }} />
            <Sections sections={sections.filter((s) => s.audience === 'everyone')} offline={offline} />
          </>
        )}
      </main>
    </div>
  );
}

/** "Welcome back", or on a first visit on this device, what to do first; and who is online now. */
function Greeting({ userId, name, avatar }: { userId: string | null; name: string; avatar: string }) {
  // Decided once per visit: remembering it must not turn this visit into a return.
  const [first] = useState(() => userId !== null && isFirstVisit(userId));
  useEffect(() => {
    if (userId) rememberVisit(userId);
  }, [userId]);
  return (
    <div className="flex flex-wrap items-center gap-4">
      <Avatar name={name} src={avatar} size={56} />
      <div className="min-w-0 flex-1">
        {first ? (
          <>
            <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">
              <Trans>Welcome to Parley, {name}</Trans>
            </h1>
            <p className="mt-1 text-slate-700">
              <Trans>You are all set. Start a text chat to meet someone now.</Trans>
            </p>
          </>
        ) : (
          <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">
            <Trans>Welcome back, {name}</Trans>
          </h1>
        )}
        <OnlineNow />
      </div>
    </div>
  );
}

/** How many people are online now, from the realtime connection (present on every signed-in page). */
function OnlineNow() {
  const status = useSocketStatus();
  const online = useOnlinePresence().count;
  if (status !== 'connected' || online === 0) return null;
  return (
    <p className="mt-1 flex items-center gap-2 text-sm text-slate-700" data-testid="dashboard-online">
      <span className="inline-block size-2 rounded-full bg-emerald-600" aria-hidden="true" />
      {online === 1 ? (
        <Trans>Only you are online right now</Trans>
      ) : (
        <Plural value={online} one="# person online now" other="# people online now" />
      )}
    </p>
  );
}

type Target = { pathname: string; search?: string };

/** The two ways into a conversation, large; a visitor's lead to sign-up first, then there. */
function StartChats({ to, visitor = false }: { to: { text: Target; video: Target }; visitor?: boolean }) {
  const { t } = useLingui();
  const link = (target: Target) =>
    visitor
      ? { to: '/createaccount', state: { from: target } satisfies ReturnToState }
      : { to: `${target.pathname}${target.search ?? ''}` };
  return (
    <nav aria-label={t`Start a conversation`} className="grid gap-3 sm:grid-cols-2">
      <Link {...link(to.text)} className={`${startButton} bg-indigo-700 text-white hover:bg-indigo-800`}>
        <Icon d={icons.text} />
        <span>
          <span className="block text-lg font-bold">
            <Trans>Start a text chat</Trans>
          </span>
          <span className="block text-sm text-indigo-100">
            <Trans>Meet someone new, matched on your topics</Trans>
          </span>
        </span>
      </Link>
      <Link {...link(to.video)} className={`${startButton} bg-white text-slate-900 ring-1 ring-slate-300 hover:bg-slate-100`}>
        <Icon d={icons.video} />
        <span>
          <span className="block text-lg font-bold">
            <Trans>Start a video chat</Trans>
          </span>
          <span className="block text-sm text-slate-600">
            <Trans>Face to face, with background filters</Trans>
          </span>
        </span>
      </Link>
    </nav>
  );
}

/**
 * The sections the app hands in, each in its own titled region. Offline (the session could not be
 * checked) none of them can be read: each says so rather than showing an empty list.
 */
function Sections({ sections, offline }: { sections: readonly DashboardSection[]; offline: boolean }) {
  const { i18n } = useLingui();
  if (sections.length === 0) return null;
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      {sections.map((s) => (
        <section
          key={s.id}
          id={`dashboard-${s.id}`}
          data-testid={`dashboard-${s.id}`}
          aria-labelledby={`dashboard-${s.id}-title`}
          className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"
        >
          <div className="flex items-center justify-between gap-2">
            <h2 id={`dashboard-${s.id}-title`} className="text-lg font-semibold text-slate-900">
              {words(i18n, s.title)}
            </h2>
            {s.coming && (
              <span className="rounded-full bg-slate-100 px-2.5 py-0.5 text-xs font-semibold text-slate-700">
                <Trans>Coming soon</Trans>
              </span>
            )}
          </div>
          {!s.Component ? (
            <p className="mt-2 text-sm text-slate-600">{words(i18n, s.coming)}</p>
          ) : offline ? (
            <p className="mt-2 text-sm text-slate-700" data-state="error">
              <Trans>Could not be loaded while offline. It shows again once you are back online.</Trans>
            </p>
          ) : (
            <Suspense
              fallback={
                <p role="status" className="mt-2 text-sm text-slate-600">
                  <Trans>Loading…</Trans>
                </p>
              }
            >
              <div className="mt-2">
                <s.Component />
              </div>
            </Suspense>
          )}
        </section>
      ))}
    </div>
  );
}
