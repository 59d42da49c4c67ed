import { useEffect, useMemo, useRef, type ReactNode } from 'react';
import { api } from '../../app/api';
import { useAppDispatch, useAppSelector, useCurrentUser } from '../../app/hooks';
import {
  closeSocket,
  connectSocket,
  getSocketFailure,
  getSocketStatus,
  reconnectSocket,
  subscribeSocketStatus,
  type SocketIdentity,
} from '../../lib/socket';
import { dismissToast, toast } from '../../lib/toast';

/**
 * Ties the shared realtime connection (lib/socket) to the session: it connects only while a
 * user id is known, follows token refreshes without dropping, closes on sign-out and on page
 * unload (so presence ends at once), signs out when the server ends the session on purpose, and
 * offers a Reconnect action once the automatic attempts are used up.
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
    // Same user: only the handshake token for the next reconnect changes.
    if (identity) connectSocket(identity);
    else closeSocket();
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

  useEffect(() => {
    let lostToast: string | null = null;
    let refreshTried = false;
    return subscribeSocketStatus(() => {
      const status = getSocketStatus();
      if (status === 'connected') {
        refreshTried = false;
        if (lostToast) dismissToast(lostToast);
        lostToast = null;
      } else if (status === 'ended') {
        // Signed out elsewhere or banned: sign out here too (spec 4), the server already ended it.
        void dispatch(api.endpoints.logout.initiate());
        toast({ title: 'You were signed out', description: 'Your session ended. Sign in again to keep chatting.' });
      } else if (status === 'failed') {
        if (getSocketFailure() === 'refused' && !refreshTried) {
          // Most often an access token that expired while offline: renew it; connectSocket retries.
          refreshTried = true;
          void dispatch(api.endpoints.refresh.initiate()).then((result) => {
            if ('data' in result && result.data === null) void dispatch(api.endpoints.logout.initiate());
            else if (result.error) showLost();
          });
          return;
        }
        showLost();
      }
    });

    function showLost() {
      lostToast = toast({
        title: 'Connection lost',
        description: 'Parley could not reach the server. Check your connection, then reconnect.',
        variant: 'error',
        duration: Infinity,
        action: { label: 'Reconnect', onClick: reconnectSocket },
      }).id;
    }
  }, [dispatch]);

  return children;
}
