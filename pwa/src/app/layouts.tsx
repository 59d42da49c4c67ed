import { Suspense } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import TopBar, { type TopBarAudience } from '../components/layout/TopBar';
import { selectSessionStatus } from '../features/auth/authSlice';
import { useAppSelector, useIsSignedIn } from '../store/hooks';
import { FullScreenSpinner } from '../components/FullScreenSpinner';
import { RouteErrorBoundary } from './RouteErrorBoundary';
import { useScrollRestoration } from './useScrollRestoration';
import { SkipLink } from '../components/SkipLink';
import { RouterNavigation } from './RouterNavigation';
import { RealtimeProvider, SignedInFrame } from './shellChunks';

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

/**
 * Every route renders inside this: scroll restored per page, lazy pages behind the spinner, errors
 * caught, and the router as the landing page's and top bar's navigation (components/layout/navigation).
 */
export function AppFrame() {
  const location = useLocation();
  useScrollRestoration();
  return (
    <RouterNavigation>
      <SkipLink />
      <SignedInRealtime />
      <RouteErrorBoundary resetKey={location.pathname}>
        <Suspense fallback={<FullScreenSpinner />}>
          <Outlet />
        </Suspense>
      </RouteErrorBoundary>
    </RouterNavigation>
  );
}

/**
 * Who the public top bar speaks to. Read without starting a deferred session check: the landing
 * page of a visitor stays free of it (sessionHint.ts).
 */
function useTopBarAudience(): TopBarAudience {
  const signedIn = useIsSignedIn();
  const session = useAppSelector(selectSessionStatus);
  return signedIn ? 'member' : session === 'restoring' ? 'pending' : 'visitor';
}

/** The landing and the ways in (sign in, sign up) share the sticky top bar. */
export function PublicLayout() {
  return (
    <>
      <TopBar audience={useTopBarAudience()} />
      <Suspense fallback={<FullScreenSpinner />}>
        <Outlet />
      </Suspense>
    </>
  );
}

/**
 * Pages a signed-in person sees inside the app's frame (top bar, tabs or sidebar, the bell); a
 * visitor sees them under the public top bar, or under the page's own header (`visitorBar={false}`).
 */
export function MemberLayout({ visitorBar = true }: { visitorBar?: boolean }) {
  const signedIn = useIsSignedIn();
  const audience = useTopBarAudience();
  if (signedIn)
    return (
      <Suspense fallback={<FullScreenSpinner />}>
        <SignedInFrame />
      </Suspense>
    );
  return (
    <div data-frame={visitorBar ? 'public' : undefined} className="min-h-dvh bg-slate-50">
      {visitorBar && <TopBar audience={audience} />}
      <Suspense fallback={<FullScreenSpinner />}>
        <Outlet />
      </Suspense>
    </div>
  );
}
