import { createSlice, type PayloadAction, type UnknownAction } from '@reduxjs/toolkit';
import type { AppNotification, NotificationPage } from '@parley/contract/notifications';

export type NotificationState = { notificationList: AppNotification[]; unread: number };

const initialState: NotificationState = { notificationList: [], unread: 0 };

/** The first page of `getNotifications` (notificationsApi) is the list this state keeps. */
const isFirstPage = (a: UnknownAction): a is PayloadAction<NotificationPage> => {
  const arg = (a as { meta?: { arg?: { endpointName?: string; originalArgs?: unknown } } }).meta?.arg;
  return a.type === 'api/executeQuery/fulfilled' && arg?.endpointName === 'getNotifications' && !arg.originalArgs;
};

const notificationSlice = createSlice({
  name: 'notification',
  initialState,
  reducers: {
    setNotifications(state, action: PayloadAction<AppNotification[]>) {
      state.notificationList = action.payload;
    },
    removeNotification(state, action: PayloadAction<string>) {
      state.notificationList = state.notificationList.filter((n) => n.notificationId !== action.payload);
    },
  },
  extraReducers: (builder) => {
    builder.addMatcher(isFirstPage, (state, { payload }) => {
      state.notificationList = payload.notificationList;
      state.unread = payload.unread;
    });
  },
});

export const notificationActions = notificationSlice.actions;
export default notificationSlice.reducer;
