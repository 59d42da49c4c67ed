import { lazy, Suspense } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import TopBar from '../components/layout/TopBar';
import { AppBar } from '../components/layout/AppBar';
import { NotificationBell } from '../features/notification/NotificationBell';
import { useIsSignedIn } from './hooks';
import { FullScreenSpinner } from '../components/FullScreenSpinner';
import { RouteErrorBoundary } from './RouteErrorBoundary';
import { useScrollRestoration } from './useScrollRestoration';

// The socket client loads once someone is signed in, not with the landing page of a visitor.
const RealtimeProvider = lazy(() => import('./RealtimeProvider').then((m) => ({ default: m.RealtimeProvider })));

/**
 * A signed-in user is online on every page (the dashboard counts who is online, friends see them),
 * not only inside the chat pages: the realtime connection follows the session, wherever it is.
 */
function SignedInRealtime() {
  const signedIn = useIsSignedIn();
  if (!signedIn) return null;
  return (
    <Suspense fallback={null}>
      <RealtimeProvider />
    </Suspense>
  );
}

/** Every route renders inside this: scroll restored per page, lazy pages behind the spinner, errors caught. */
export function AppFrame() {
  const location = useLocation();
  useScrollRestoration();
  return (
    <>
      <a
        href="#main"
        className="sr-only z-[200] rounded bg-white px-3 py-2 text-indigo-700 focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
      >
        Skip to content
      </a>
      <SignedInRealtime />
      <RouteErrorBoundary resetKey={location.pathname}>
        <Suspense fallback={<FullScreenSpinner />}>
          <Outlet />
        </Suspense>
      </RouteErrorBoundary>
    </>
  );
}

/** The landing, sign-in and public information pages share the sticky top bar. */
export function PublicLayout() {
  return (
    <>
      <TopBar />
      <Suspense fallback={<FullScreenSpinner />}>
        <Outlet />
      </Suspense>
    </>
  );
}

/** Pages of a signed-in person (profile, settings, people): the app bar with the notification bell; a visitor gets the public top bar. */
export function MemberLayout() {
  const signedIn = useIsSignedIn();
  return (
    <div className="min-h-dvh bg-slate-50">
      {signedIn ? <AppBar actions={<NotificationBell />} /> : <TopBar />}
      <Suspense fallback={<FullScreenSpinner />}>
        <Outlet />
      </Suspense>
    </div>
  );
}
