import { Link, useNavigate } from 'react-router-dom';
import { useLogoutMutation } from '../../app/api';
import { useAppSelector, useCurrentUser, useIsSignedIn, useSessionStatus } from '../../app/hooks';
import { Avatar } from '../../components/Avatar';
import { focusRing } from '../../components/FormField';
import { InstallButton } from '../../components/InstallButton';
import { OfflineBanner } from '../../components/OfflineBanner';
import { LogoMark } from '../../components/layout/Logo';
import { toast } from '../../lib/toast';
import { DocumentTitle } from '../../components/DocumentTitle';

type Hub = { to: string; title: string; blurb: string; icon: string };

const hubs: Hub[] = [
  {
    to: '/textchat',
    title: 'Text chat',
    blurb: 'Meet someone new one-on-one, matched on the topics you pick.',
    icon: 'M4 5h16v10H8l-4 4z',
  },
  {
    to: '/videochat',
    title: 'Video chat',
    blurb: 'Face to face with a stranger, with your camera and background filters.',
    icon: 'M3 7h12v10H3zM15 10l6-3v10l-6-3',
  },
  {
    to: '/groupchat',
    title: 'Group chat',
    blurb: 'Join rooms around a subject and talk with several people at once.',
    icon: 'M8 11a3 3 0 1 0 0-6 3 3 0 0 0 0 6zm8 0a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM2 20c0-3 3-5 6-5s6 2 6 5m0-5c1-.6 2-.9 3-.9 3 0 5 2 5 5',
  },
  {
    to: '/livestream',
    title: 'Live streams',
    blurb: 'Watch people stream live and chat along, or go live yourself.',
    icon: 'M12 12m-2 0a2 2 0 1 0 4 0 2 2 0 1 0-4 0M7 7a7 7 0 0 0 0 10m10-10a7 7 0 0 1 0 10',
  },
  {
    to: '/missions',
    title: 'Missions',
    blurb: 'Your level, XP, gold, daily streak and today’s quests.',
    icon: 'M12 3l2.6 5.3 5.9.9-4.3 4.1 1 5.8L12 16.4 6.8 19.1l1-5.8L3.5 9.2l5.9-.9z',
  },
  {
    to: '/store',
    title: 'Store',
    blurb: 'Spend gold on emoji packs, flair, frames and colours.',
    icon: 'M4 7h16l-1.5 12h-13zM9 7a3 3 0 0 1 6 0',
  },
];

/** The hub after sign-in; anonymous visitors see the same cards, each leading to sign-in first. */
export default function DashboardPage() {
  const user = useCurrentUser();
  const signedIn = useIsSignedIn();
  const session = useSessionStatus();
  const savedProfile = useAppSelector((s) => s.profile);
  const [logout, { isLoading: signingOut }] = useLogoutMutation();
  const navigate = useNavigate();
  const offline = session === 'unreachable';
  // Offline at start: the session cannot be checked, so the name saved on this device is shown.
  const name = signedIn ? user!.username : offline && savedProfile.username ? savedProfile.username : null;
  const avatar = signedIn ? user!.avatar : savedProfile.avatar;

  async function signOut() {
    await logout();
    toast({ title: 'Signed out', description: 'See you soon.' });
    navigate('/dashboard', { replace: true });
  }

  return (
    <div className="min-h-dvh bg-slate-50">
      <DocumentTitle title="Dashboard · Parley" />
      <OfflineBanner forceShow={offline} />
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-5xl items-center justify-between gap-3 px-4 py-3">
          <Link to="/" className={`flex items-center gap-2 rounded-md text-lg font-bold text-slate-900 ${focusRing}`}>
            <LogoMark />
            Parley
          </Link>
          <div className="flex items-center gap-3">
            <InstallButton />
            {signedIn && (
              <button
                type="button"
                onClick={() => void signOut()}
                disabled={signingOut}
                className={`rounded-lg border border-slate-400 px-3 py-2 text-sm font-semibold text-slate-800 hover:bg-slate-100 ${focusRing}`}
              >
                {signingOut ? 'Signing out…' : 'Sign out'}
              </button>
            )}
            {!signedIn && session !== 'restoring' && !offline && (
              <Link
                to="/login"
                className={`rounded-lg bg-indigo-700 px-3 py-2 text-sm font-semibold text-white hover:bg-indigo-800 ${focusRing}`}
              >
                Log in
              </Link>
            )}
          </div>
        </div>
      </header>
      <main id="main" className="mx-auto max-w-5xl px-4 py-8">
        {session === 'restoring' ? (
          <p role="status" className="text-slate-700">
            Loading Content...
          </p>
        ) : name ? (
          <div className="flex items-center gap-4">
            <Avatar name={name} src={avatar} size={56} />
            <div>
              <p className="text-sm text-slate-600">Welcome back</p>
              <h1 className="text-2xl font-bold text-slate-900">{name}</h1>
            </div>
          </div>
        ) : (
          <div>
            <h1 className="text-2xl font-bold text-slate-900">Welcome to Parley</h1>
            <p className="mt-1 text-slate-700">
              <Link to="/login" className={`font-semibold text-indigo-700 underline ${focusRing}`}>
                Log in
              </Link>{' '}
              or{' '}
              <Link to="/createaccount" className={`font-semibold text-indigo-700 underline ${focusRing}`}>
                create an account
              </Link>{' '}
              to start meeting people.
            </p>
          </div>
        )}
        <h2 className="sr-only">Where to go</h2>
        <ul className="mt-8 grid gap-4 sm:grid-cols-2">
          {hubs.map((hub) => (
            <li key={hub.to}>
              <Link
                to={signedIn ? hub.to : '/login'}
                state={signedIn ? undefined : { from: { pathname: hub.to } }}
                className={`flex h-full gap-4 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm transition hover:border-indigo-400 hover:shadow-md ${focusRing}`}
              >
                <span
                  className="flex size-12 shrink-0 items-center justify-center rounded-xl bg-indigo-50 text-indigo-700"
                  aria-hidden="true"
                >
                  <svg
                    viewBox="0 0 24 24"
                    className="size-6"
                    fill="none"
                    stroke="currentColor"
                    strokeWidth="2"
                    strokeLinecap="round"
                    strokeLinejoin="round"
                  >
                    <path d={hub.icon} />
                  </svg>
                </span>
                <span>
                  <span className="block text-lg font-semibold text-slate-900">{hub.title}</span>
                  <span className="mt-1 block text-sm text-slate-700">{hub.blurb}</span>
                  {!signedIn && <span className="mt-2 block text-sm font-medium text-indigo-700">Log in to start</span>}
                </span>
              </Link>
            </li>
          ))}
        </ul>
      </main>
    </div>
  );
}
