import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

export type NotificationEntry = { notificationId: string; title: string; body: string; createdAt: string; read: boolean };
export type NotificationState = { notificationList: NotificationEntry[] };

const initialState: NotificationState = { notificationList: [] };

const notificationSlice = createSlice({
  name: 'notification',
  initialState,
  reducers: {
    setNotifications(state, action: PayloadAction<NotificationEntry[]>) {
      state.notificationList = action.payload;
    },
    removeNotification(state, action: PayloadAction<string>) {
      state.notificationList = state.notificationList.filter((n) => n.notificationId !== action.payload);
    },
  },
});

export const notificationActions = notificationSlice.actions;
export default notificationSlice.reducer;
