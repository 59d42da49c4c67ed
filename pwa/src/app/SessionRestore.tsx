import { useEffect } from 'react';
import { useAppDispatch, useAppSelector } from '../store/hooks';
import { logOut, sessionDeferred, sessionRestoring, sessionUnreachable } from '../features/auth/authSlice';
import { tokenExpiresAt } from '../lib/jwt';
import { rememberSession, shouldRestoreAtStart } from '../lib/sessionHint';
import { refreshAccessToken } from './refreshSession';

// Refresh this long before the access token expires, so calls and the socket never carry a dead one.
const REFRESH_AHEAD_MS = 60_000;
const UNREACHABLE_RETRY_MS = 20_000;

/**
 * Restores the session on start through GET /api/auth/refresh (the httpOnly cookie), so a reload
 * keeps the user signed in with nothing in storage; retries when the browser comes back online;
 * renews the access token before it expires. (The saved profile follows the token in profileSlice.)
 */
export function SessionRestore() {
  const dispatch = useAppDispatch();
  const token = useAppSelector((s) => s.auth.token);
  const session = useAppSelector((s) => s.auth.session);

  // The single-flight refresh makes StrictMode's double effect and concurrent callers share one call.
  useEffect(() => {
    if (session !== 'restoring') return;
    if (!shouldRestoreAtStart(window.location.pathname)) {
      dispatch(sessionDeferred()); // Asked later by the first screen that needs the user (useSession).
      return;
    }
    refreshAccessToken(dispatch).then(
      (token) => {
        if (!token) dispatch(logOut());
      },
      () => dispatch(sessionUnreachable()),
    );
  }, [dispatch, session]);

  useEffect(() => {
    if (session !== 'unreachable') return;
    const retry = () => dispatch(sessionRestoring());
    window.addEventListener('online', retry);
    // Online but the server did not answer (restarting, a proxy hiccup): try again now and then.
    const timer = setInterval(() => {
      if (navigator.onLine) retry();
    }, UNREACHABLE_RETRY_MS);
    return () => {
      window.removeEventListener('online', retry);
      clearInterval(timer);
    };
  }, [dispatch, session]);

  useEffect(() => {
    const exp = token ? tokenExpiresAt(token) : null;
    if (!exp) return;
    const delay = Math.max(5_000, exp * 1000 - Date.now() - REFRESH_AHEAD_MS);
    const timer = setTimeout(() => {
      refreshAccessToken(dispatch).then(
        (token) => {
          if (token === null) dispatch(logOut());
        },
        () => undefined, // Unreachable: keep the session; the next call's 401 refreshes again.
      );
    }, delay);
    return () => clearTimeout(timer);
  }, [dispatch, token]);

  useEffect(() => {
    if (session === 'ready') rememberSession(token !== null);
  }, [session, token]);

  return null;
}
