import { Suspense } from 'react';
import { LevelUpMoment, OwnedEmojiProvider, WarningNotice } from './shellChunks';
import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { useCurrentUser, useIsSignedIn, useSessionStatus } from '../store/hooks';
import { FullScreenSpinner } from '../components/FullScreenSpinner';
import { OfflineBanner } from '../components/OfflineBanner';
import { OfflineSessionScreen } from './pages/OfflineSessionScreen';

/**
 * The guard of the signed-in routes: a user whose username is empty or `None` goes to
 * /login, which sends them back here after signing in. A Google account that has not given its
 * age and gender yet finishes that first.
 */
export function RequireUser() {
  const location = useLocation();
  const session = useSessionStatus();
  const user = useCurrentUser();
  const signedIn = useIsSignedIn();

  if (session === 'restoring') return <FullScreenSpinner />;
  if (session === 'unreachable') return <OfflineSessionScreen />;
  if (!signedIn)
    return <Navigate to="/login" replace state={{ from: { pathname: location.pathname, search: location.search, hash: location.hash } }} />;
  if (user && !user.isVerified) return <Navigate to="/confirm-account" replace />;
  return (
    <>
      {/* Connection lost while signed in: say so above whatever screen is open (hidden when online). */}
      <OfflineBanner />
      {/* A moderator's warning, once; it never holds up the page. */}
      <Suspense fallback={null}>
        <WarningNotice />
        <LevelUpMoment />
      </Suspense>
      <Suspense fallback={<FullScreenSpinner />}>
        <OwnedEmojiProvider>
          <Outlet />
        </OwnedEmojiProvider>
      </Suspense>
    </>
  );
}
