import { useEffect, useMemo, useRef, type ReactNode } from 'react';
import { api } from '../store/api';
import { useAppDispatch, useAppSelector, useCurrentUser } from '../store/hooks';
import { closeSocket, connectSocket, type SocketIdentity } from '../realtime/socket';
import { watchSessionSocket } from '../realtime/sessionSocket';
import { setHostedAccessToken } from '../realtime/hostedRooms';
import { watchEntitlements } from '../features/billing/entitlements';
import { useMissionWatch } from '../features/missions/useMissionWatch';
import { setSigningOut } from '../lib/signingOut';
import { UpdateRequiredBanner } from '../components/UpdateRequiredBanner';

/**
 * Ties the shared realtime connection (realtime/socket) to the session: it connects only while a
 * user id is known, follows token refreshes without dropping, closes on sign-out and on page
 * unload (so presence ends at once), signs out when the server ends the session on purpose, and
 * offers a Reconnect action once the automatic attempts are used up. When the server no longer
 * speaks this build's protocol, it shows the banner asking for a reload.
 */
export function RealtimeProvider({ children }: { children?: ReactNode }) {
  const dispatch = useAppDispatch();
  const token = useAppSelector((s) => s.auth.token);
  const user = useCurrentUser();
  const userId = user?.userId;
  const username = user?.username;
  const identity = useMemo<SocketIdentity | null>(
    () => (token && userId && username !== undefined ? { token, userId, username } : null),
    [token, userId, username],
  );
  const identityRef = useRef(identity);

  useEffect(() => {
    identityRef.current = identity;
    setHostedAccessToken(identity?.token ?? null);
    // Same user: only the handshake token for the next reconnect changes.
    if (identity) {
      setSigningOut(false); // a sign-in of its own: a later end of it is news again
      connectSocket(identity);
    } else closeSocket();
  }, [identity]);

  useEffect(() => () => closeSocket(), []);

  useEffect(() => {
    const onHide = () => closeSocket();
    // Back from the back/forward cache: the page lives again, so does its connection.
    const onShow = (e: PageTransitionEvent) => {
      if (e.persisted && identityRef.current) connectSocket(identityRef.current);
    };
    window.addEventListener('pagehide', onHide);
    window.addEventListener('pageshow', onShow);
    return () => {
      window.removeEventListener('pagehide', onHide);
      window.removeEventListener('pageshow', onShow);
    };
  }, []);

  useEffect(
    () =>
      watchSessionSocket({
        signOut: () => void dispatch(api.endpoints.logout.initiate()),
        refresh: async () => {
          const result = await dispatch(api.endpoints.refresh.initiate());
          if ('error' in result && result.error) throw new Error('The session could not be renewed');
          return result.data ?? null;
        },
        identity: () => identityRef.current,
      }),
    [dispatch],
  );

  // A payment changed the tier: a fresh token carries it, and billing data is fetched again.
  useEffect(
    () =>
      watchEntitlements({
        refresh: () => dispatch(api.endpoints.refresh.initiate()),
        invalidate: () => dispatch(api.util.invalidateTags(['Subscription'])),
      }),
    [dispatch],
  );

  useMissionWatch(userId);

  return (
    <>
      <UpdateRequiredBanner />
      {children}
    </>
  );
}
