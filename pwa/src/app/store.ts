import { combineReducers, configureStore } from '@reduxjs/toolkit';
import authReducer from '../features/auth/authSlice';
import chatReducer from '../features/chat/chatSlice';
import videoChatReducer from '../features/videoChat/videoChatSlice';
import groupChatReducer from '../features/groupChat/groupChatSlice';
import profileReducer from '../features/profile/profileSlice';
import userProfileReducer from '../features/userProfile/userProfileSlice';
import notificationReducer from '../features/notification/notificationSlice';
import missionReducer from '../features/mission/missionSlice';
import storeReducer from '../features/store/storeSlice';

export const rootReducer = combineReducers({
  auth: authReducer,
  chat: chatReducer,
  videoChat: videoChatReducer,
  groupChat: groupChatReducer,
  profile: profileReducer,
  userProfile: userProfileReducer,
  notification: notificationReducer,
  mission: missionReducer,
  store: storeReducer,
});

export function makeStore() {
  return configureStore({ reducer: rootReducer });
}

export type RootState = ReturnType<typeof rootReducer>;
export type AppStore = ReturnType<typeof makeStore>;
export type AppDispatch = AppStore['dispatch'];
