import { useDispatch, useSelector } from 'react-redux';
import type { AppDispatch, RootState } from './store';
import { selectCurrentUser } from '../features/auth/authSlice';

/** Typed hooks; features use these instead of the untyped react-redux ones. */
export const useAppDispatch = useDispatch.withTypes<AppDispatch>();
export const useAppSelector = useSelector.withTypes<RootState>();

/** The signed-in user decoded from the access token ({ username, userId, avatar, … }), or null. */
export const useCurrentUser = () => useAppSelector(selectCurrentUser);
