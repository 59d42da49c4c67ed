import { api } from '../../store/api';
import { notificationEvents, type AppNotification, type NotificationPage, type NotificationsRead } from '@parley/contract/notifications';
import { onSocketEvent } from '../../realtime/socket';

export const notificationsApi = api.injectEndpoints({
  endpoints: (builder) => ({
    /** The newest page (no argument), or the page before a notification id. */
    getNotifications: builder.query<NotificationPage, string | void>({
      query: (before) => ({ url: '/api/notifications', params: before ? { before, limit: 20 } : { limit: 20 } }),
      providesTags: ['Notification'],
      // New notifications arrive over the socket: the first page is fetched again, read marks applied in place.
      async onCacheEntryAdded(before, { dispatch, updateCachedData, cacheDataLoaded, cacheEntryRemoved }) {
        if (before) return;
        // Listening from the start: a page that opens a conversation is told its notices are read
        // while the first page may still be on its way, with the count from before.
        let loaded = false;
        const offCreated = onSocketEvent(notificationEvents.created, (n: AppNotification) => {
          if (typeof n?.notificationId !== 'string') return;
          dispatch(api.util.invalidateTags(['Notification']));
        });
        const offRead = onSocketEvent(notificationEvents.read, (r: NotificationsRead) => {
          // Before the first page arrives, fetch it again once it has (RTK Query delays an invalidation until then).
          if (!loaded) return void dispatch(api.util.invalidateTags(['Notification']));
          updateCachedData((page) => {
            const all = r?.notificationIds === 'all';
            const ids = new Set(Array.isArray(r?.notificationIds) ? r.notificationIds : []);
            for (const n of page.notificationList) if (!n.read && (all || ids.has(n.notificationId))) n.read = true;
            page.unread = all ? 0 : Math.max(0, page.unread - ids.size);
          });
        });
        await cacheDataLoaded.then(() => (loaded = true)).catch(() => undefined);
        await cacheEntryRemoved;
        offCreated();
        offRead();
      },
    }),
    markNotificationsRead: builder.mutation<{ notificationIds: string[] }, string[]>({
      query: (notificationIds) => ({ url: '/api/notifications/read', method: 'POST', body: { notificationIds } }),
      invalidatesTags: ['Notification'],
    }),
    markAllNotificationsRead: builder.mutation<{ notificationIds: string[] }, void>({
      query: () => ({ url: '/api/notifications/read-all', method: 'POST' }),
      invalidatesTags: ['Notification'],
    }),
  }),
});

export const {
  useGetNotificationsQuery,
  useLazyGetNotificationsQuery,
  useMarkNotificationsReadMutation,
  useMarkAllNotificationsReadMutation,
} = notificationsApi;
