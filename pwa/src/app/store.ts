import { combineSlices, configureStore, createDynamicMiddleware, type UnknownAction } from '@reduxjs/toolkit';
import { FLUSH, PAUSE, PERSIST, persistReducer, PURGE, REGISTER, REHYDRATE } from 'redux-persist';
import { persistStorage } from '../lib/persistStorage';
import authReducer, { logOut } from '../features/auth/authSlice';
import chatReducer from '../features/textChat/chatSlice';
import videoChatReducer from '../features/videoChat/videoChatSlice';
import groupChatReducer from '../features/groups/groupChatSlice';
import profileReducer from '../features/people/profileSlice';
import userProfileReducer from '../features/people/userProfileSlice';
import notificationReducer from '../features/notifications/notificationSlice';
import missionReducer from '../features/missions/missionSlice';
import shopReducer from '../features/shop/shopSlice';
import searchPreferencesReducer from '../realtime/searchPreferences';

// Kept across restarts: search preferences (chat filters, automatic reconnect), video devices, the own profile (settings). Never the token:
// `auth` is not persisted at all, and the profile's pending newPassword is left out.
const persisted = { storage: persistStorage, version: 1 };

/**
 * Slices that arrive with a later chunk and add themselves here (declaration merging): the RTK
 * Query `api` slice comes with the first screen that calls the server (store/api.ts), so the
 * landing page's first download does not carry RTK Query.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled in by declaration merging
export interface LazyLoadedSlices {}

const combinedReducer = combineSlices({
  auth: authReducer,
  chat: chatReducer,
  // Saved under the key the chat's filters always had, so that a device keeps them.
  searchPreferences: persistReducer(
    { ...persisted, key: 'chat', whitelist: ['chatFilters', 'automaticReconnect', 'nudityGuard'] },
    searchPreferencesReducer,
  ),
  videoChat: persistReducer(
    { ...persisted, key: 'videoChat', whitelist: ['deviceId', 'deviceAudioId', 'backgroundVideoFilter'] },
    videoChatReducer,
  ),
  groupChat: groupChatReducer,
  profile: persistReducer({ ...persisted, key: 'profile', blacklist: ['newPassword'] }, profileReducer),
  userProfile: userProfileReducer,
  notification: notificationReducer,
  mission: missionReducer,
  store: shopReducer,
}).withLazyLoadedSlices<LazyLoadedSlices>();

/** Adds a lazily loaded slice to every store (see LazyLoadedSlices). */
export const injectSlice = combinedReducer.inject;

/** Middleware that a lazily loaded chunk adds to every store (RTK Query's, with its slice). */
export const lazyMiddleware = createDynamicMiddleware();

type CombinedState = ReturnType<typeof combinedReducer>;
let fresh: CombinedState | undefined;

/**
 * Signing out forgets everything that belonged to that user (conversation, rooms, profile,
 * notifications, missions, store); device preferences (filters, cameras) stay.
 */
function forgetUser(state: CombinedState): CombinedState {
  fresh ??= combinedReducer(undefined, { type: '@@parley/fresh' });
  return {
    ...state,
    chat: fresh.chat,
    groupChat: fresh.groupChat,
    profile: { ...fresh.profile, _persist: state.profile._persist },
    userProfile: fresh.userProfile,
    notification: fresh.notification,
    mission: fresh.mission,
    store: fresh.store,
  };
}

export const rootReducer = (state: CombinedState | undefined, action: UnknownAction): CombinedState =>
  combinedReducer(state && logOut.match(action) ? forgetUser(state) : state, action);

export function makeStore(preloadedState?: Partial<CombinedState>) {
  return configureStore({
    reducer: rootReducer,
    preloadedState: preloadedState as CombinedState | undefined,
    middleware: (getDefault) =>
      getDefault({ serializableCheck: { ignoredActions: [FLUSH, REHYDRATE, PAUSE, PERSIST, PURGE, REGISTER] } }).concat(
        lazyMiddleware.middleware,
      ),
  });
}

export type RootState = ReturnType<typeof rootReducer>;
export type AppStore = ReturnType<typeof makeStore>;
export type AppDispatch = AppStore['dispatch'];
