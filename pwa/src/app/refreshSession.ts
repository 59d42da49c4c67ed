import type { Dispatch } from '@reduxjs/toolkit';
import type { AccessTokenAnswer } from '@parley/contract/auth';
import { setCredentials } from '../features/auth/authSlice';

/** What a refresh that could not reach the server rejects with (RTK Query's error kind). */
export type RefreshUnreachable = { status: 'FETCH_ERROR'; error: string };

let refreshing: Promise<string | null> | null = null;

/**
 * One GET /api/auth/refresh at a time, shared by every caller (concurrent 401s of the request
 * helper, the start-up restore, the timer before expiry). Refresh tokens rotate and reuse revokes
 * the family, so two refreshes with the same cookie must never race; across tabs the Web Locks
 * API serialises them. Resolves with the new access token (stored through setCredentials), or null
 * when the session is over; rejects with a FETCH_ERROR when the server could not be reached.
 *
 * A plain fetch, not RTK Query: the start-up restore runs on every page, and RTK Query loads only
 * with the first screen that calls the server.
 */
export function refreshAccessToken(dispatch: Dispatch): Promise<string | null> {
  refreshing ??= (async () => {
    const call = async () => {
      try {
        return await fetch(new Request('/api/auth/refresh', { method: 'GET', credentials: 'include' }));
      } catch (error) {
        throw { status: 'FETCH_ERROR', error: String(error) } satisfies RefreshUnreachable;
      }
    };
    const res =
      typeof navigator !== 'undefined' && navigator.locks ? await navigator.locks.request('parley-auth-refresh', call) : await call();
    // Failures are silent: anything but a token means there is no session.
    const body = res.ok ? ((await res.json().catch(() => null)) as Partial<AccessTokenAnswer> | null) : null;
    if (typeof body?.accessToken !== 'string') return null;
    dispatch(setCredentials({ accessToken: body.accessToken }));
    return body.accessToken;
  })().finally(() => {
    refreshing = null;
  });
  return refreshing;
}
