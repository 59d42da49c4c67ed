import { useEffect } from 'react';
import { useDispatch, useSelector } from 'react-redux';
import type { AppDispatch, RootState } from '../app/store';
import { selectCurrentUser, selectIsSignedIn, selectSessionStatus, sessionRestoring } from '../features/auth/authSlice';

/** Typed hooks; features use these instead of the untyped react-redux ones. */
export const useAppDispatch = useDispatch.withTypes<AppDispatch>();
export const useAppSelector = useSelector.withTypes<RootState>();

/** The signed-in user decoded from the access token ({ username, userId, avatar, … }), or null. */
export const useCurrentUser = () => useAppSelector(selectCurrentUser);

/** Signed in: a non-empty username other than the literal None. */
export const useIsSignedIn = () => useAppSelector(selectIsSignedIn);

/**
 * The session status for a screen that depends on who is signed in: 'restoring' while the
 * refresh runs, 'unreachable' when it could not reach the server, 'ready' once known. A check
 * deferred by a public start page is started here.
 */
export function useSessionStatus() {
  const status = useAppSelector(selectSessionStatus);
  const dispatch = useAppDispatch();
  useEffect(() => {
    if (status === 'deferred') dispatch(sessionRestoring());
  }, [dispatch, status]);
  return status === 'deferred' ? 'restoring' : status;
}
