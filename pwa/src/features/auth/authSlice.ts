import { createSelector, createSlice } from '@reduxjs/toolkit';
import type { TokenUser } from '@parley/contract/auth';
import { setCredentials, userFromToken } from '../../lib/credentials';

export { setCredentials };

/**
 * Where the session stands: `restoring` until the start-up refresh answers; `ready` once we know
 * whether someone is signed in; `unreachable` when the server could not be asked (offline);
 * `deferred` on a public page of a browser that never signed in: not asked yet, asked as soon as
 * a screen needs to know.
 */
export type SessionStatus = 'restoring' | 'deferred' | 'ready' | 'unreachable';

/** The access token lives only here, in memory; the refresh token is an httpOnly cookie. */
export type AuthState = { token: string | null; session: SessionStatus };

const initialState: AuthState = { token: null, session: 'restoring' };

const authSlice = createSlice({
  name: 'auth',
  initialState,
  reducers: {
    logOut(state) {
      state.token = null;
      state.session = 'ready';
    },
    /** The refresh could not reach the server: nobody is signed in yet, and we retry when online. */
    sessionUnreachable(state) {
      if (!state.token) state.session = 'unreachable';
    },
    sessionRestoring(state) {
      if (!state.token) state.session = 'restoring';
    },
    sessionDeferred(state) {
      if (!state.token) state.session = 'deferred';
    },
  },
  extraReducers: (builder) => {
    builder.addCase(setCredentials, (state, action) => {
      state.token = action.payload.accessToken;
      state.session = 'ready';
    });
  },
});

export const { logOut, sessionUnreachable, sessionRestoring, sessionDeferred } = authSlice.actions;
export default authSlice.reducer;

type WithAuth = { auth: AuthState };

/** The signed-in user read from the access token's payload (not verified: the server does that). */
export const selectCurrentUser = createSelector([(s: WithAuth) => s.auth.token], (token): TokenUser | null =>
  token ? userFromToken(token) : null,
);

/** Signed in: a non-empty username other than the literal None. */
export function isSignedInUser(user: Pick<TokenUser, 'username'> | null): boolean {
  return !!user && user.username !== '' && user.username !== 'None';
}

export const selectIsSignedIn = (s: WithAuth) => isSignedInUser(selectCurrentUser(s));
export const selectSessionStatus = (s: WithAuth) => s.auth.session;
