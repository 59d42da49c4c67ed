import { useDispatch, useSelector } from 'react-redux';
import type { AppDispatch, RootState } from './store';
import { selectCurrentUser, selectIsSignedIn, selectSessionStatus } from '../features/auth/authSlice';

/** Typed hooks; features use these instead of the untyped react-redux ones. */
export const useAppDispatch = useDispatch.withTypes<AppDispatch>();
export const useAppSelector = useSelector.withTypes<RootState>();

/** The signed-in user decoded from the access token ({ username, userId, avatar, … }), or null. */
export const useCurrentUser = () => useAppSelector(selectCurrentUser);

/** Signed in per spec 6: a non-empty username other than the literal None. */
export const useIsSignedIn = () => useAppSelector(selectIsSignedIn);

/** 'restoring' while the start-up refresh runs, 'unreachable' when it could not reach the server. */
export const useSessionStatus = () => useAppSelector(selectSessionStatus);
