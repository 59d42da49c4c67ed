import { api } from '../../store/api';
import {
  peopleEvents,
  type BackgroundGallery,
  type Friend,
  type FriendPresence,
  type FriendRequests,
  type OwnProfile,
  type PersonSummary,
  type ProfileUpdate,
  type Settings,
  type UserProfile,
} from '@parley/contract/people';
import type { MissionOverview } from '@parley/contract/missions';
import { onSocketEvent } from '../../realtime/socket';

const FRIENDS = { type: 'User' as const, id: 'FRIENDS' };
// A tag of their own: a profile change (avatar, background) refetching the settings could land
// while a settings change is on its way and put the switch back on screen.
const SETTINGS = 'Settings' as const;
const BLOCKS = { type: 'User' as const, id: 'BLOCKS' };

/** Settings changes sent so far: only the answer to the latest one replaces what the screen shows. */
let settingsWrites = 0;

/** Profiles, friends, recent partners, ratings, backgrounds and settings (api/src/people). */
export const peopleApi = api.injectEndpoints({
  endpoints: (builder) => ({
    getProfile: builder.query<OwnProfile, void>({ query: () => '/api/profile', providesTags: ['Profile'] }),
    updateProfile: builder.mutation<OwnProfile, ProfileUpdate>({
      query: (body) => ({ url: '/api/profile', method: 'PATCH', body }),
      invalidatesTags: ['Profile'],
    }),
    uploadAvatar: builder.mutation<OwnProfile, File>({
      query: (file) => ({
        url: '/api/profile/avatar',
        method: 'PUT',
        body: file,
        headers: { 'content-type': file.type || 'application/octet-stream' },
      }),
      invalidatesTags: ['Profile'],
    }),
    removeAvatar: builder.mutation<OwnProfile, void>({
      query: () => ({ url: '/api/profile/avatar', method: 'DELETE' }),
      invalidatesTags: ['Profile'],
    }),
    setBackground: builder.mutation<OwnProfile, string | null>({
      query: (background) => ({ url: '/api/profile/background', method: 'PUT', body: { background } }),
      invalidatesTags: ['Profile', { type: 'Profile', id: 'BACKGROUNDS' }],
    }),
    getBackgrounds: builder.query<BackgroundGallery, void>({
      query: () => '/api/backgrounds',
      providesTags: [{ type: 'Profile', id: 'BACKGROUNDS' }],
    }),
    uploadBackground: builder.mutation<{ id: string; url: string }, File>({
      query: (file) => ({
        url: '/api/backgrounds',
        method: 'POST',
        body: file,
        headers: { 'content-type': file.type || 'application/octet-stream' },
      }),
      invalidatesTags: [{ type: 'Profile', id: 'BACKGROUNDS' }],
    }),

    getUserProfile: builder.query<UserProfile, string>({
      query: (username) => `/api/users/${encodeURIComponent(username)}`,
      providesTags: (_r, _e, u) => [{ type: 'User', id: u.toLowerCase() }, FRIENDS],
    }),

    getFriends: builder.query<Friend[], void>({
      query: () => '/api/friends',
      providesTags: [FRIENDS],
      // Friends coming online or leaving arrive over the socket; a request answered refetches (useFriendsChangedSync).
      async onCacheEntryAdded(_arg, { updateCachedData, cacheDataLoaded, cacheEntryRemoved }) {
        await cacheDataLoaded.catch(() => undefined);
        const offPresence = onSocketEvent(peopleEvents.friendPresence, (p: FriendPresence) =>
          updateCachedData((list) => {
            const f = list.find((x) => x.userId === p?.userId);
            if (f && typeof p.online === 'boolean') f.online = p.online;
          }),
        );
        await cacheEntryRemoved;
        offPresence();
      },
    }),
    getFriendRequests: builder.query<FriendRequests, void>({ query: () => '/api/friends/requests', providesTags: [FRIENDS] }),
    answerFriendRequest: builder.mutation<null, { requestId: string; accept: boolean }>({
      query: ({ requestId, accept }) => ({ url: `/api/friends/requests/${requestId}/answer`, method: 'POST', body: { accept } }),
      invalidatesTags: [FRIENDS],
    }),
    cancelFriendRequest: builder.mutation<null, string>({
      query: (id) => ({ url: `/api/friends/requests/${id}`, method: 'DELETE' }),
      invalidatesTags: [FRIENDS],
    }),
    unfriend: builder.mutation<null, string>({
      query: (username) => ({ url: `/api/friends/${encodeURIComponent(username)}`, method: 'DELETE' }),
      invalidatesTags: [FRIENDS],
    }),

    getSettings: builder.query<Settings, void>({ query: () => '/api/settings', providesTags: [SETTINGS] }),
    updateSettings: builder.mutation<Settings, Partial<Settings>>({
      query: (body) => ({ url: '/api/settings', method: 'PATCH', body }),
      // Shown at once (a switch follows the finger), undone if the server refuses it.
      async onQueryStarted(change, { dispatch, queryFulfilled }) {
        const mine = ++settingsWrites;
        const patch = dispatch(peopleApi.util.updateQueryData('getSettings', undefined, (draft) => Object.assign(draft, change)));
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        // A later change still on its way would be undone on screen by this answer; its own answer comes next.
        if (data && mine === settingsWrites) dispatch(peopleApi.util.upsertQueryData('getSettings', undefined, data));
        else if (!data) patch.undo();
      },
    }),
    /** The streak reminder switch (kept with missions, which send them): on /settingboard beside the other notifications. */
    getStreakReminders: builder.query<boolean, void>({
      query: () => '/api/missions',
      transformResponse: (o: MissionOverview) => o.settings.streakReminders,
      providesTags: ['Mission'],
    }),
    setStreakReminders: builder.mutation<void, boolean>({
      query: (streakReminders) => ({ url: '/api/missions/settings', method: 'PUT', body: { streakReminders } }),
      invalidatesTags: ['Mission'],
    }),
    getBlocks: builder.query<PersonSummary[], void>({ query: () => '/api/settings/blocks', providesTags: [BLOCKS] }),
    block: builder.mutation<null, string>({
      query: (username) => ({ url: '/api/settings/blocks', method: 'POST', body: { username } }),
      invalidatesTags: [BLOCKS, FRIENDS],
    }),
    unblock: builder.mutation<null, string>({
      query: (username) => ({ url: `/api/settings/blocks/${encodeURIComponent(username)}`, method: 'DELETE' }),
      invalidatesTags: [BLOCKS, FRIENDS],
    }),
    signOutEverywhere: builder.mutation<null, void>({ query: () => ({ url: '/api/settings/sign-out-everywhere', method: 'POST' }) }),
    exportData: builder.mutation<string, void>({ query: () => ({ url: '/api/settings/export', responseHandler: 'text' }) }),
    /** This device's push subscription, registered or withdrawn (lib/push makes the subscription itself). */
    pushDevice: builder.mutation<unknown, { action: 'subscriptions' | 'unsubscribe'; body: unknown }>({
      query: ({ action, body }) => ({ url: `/api/notifications/push/${action}`, method: 'POST', body }),
    }),
    deleteAccount: builder.mutation<null, string>({
      query: (password) => ({ url: '/api/settings/delete-account', method: 'POST', body: { password } }),
    }),
  }),
});

export const {
  useGetProfileQuery,
  useUpdateProfileMutation,
  useUploadAvatarMutation,
  useRemoveAvatarMutation,
  useSetBackgroundMutation,
  useGetBackgroundsQuery,
  useUploadBackgroundMutation,
  useGetUserProfileQuery,
  useGetFriendsQuery,
  useGetFriendRequestsQuery,
  useAnswerFriendRequestMutation,
  useCancelFriendRequestMutation,
  useUnfriendMutation,
  useGetSettingsQuery,
  useUpdateSettingsMutation,
  useGetBlocksQuery,
  useGetStreakRemindersQuery,
  useSetStreakRemindersMutation,
  useBlockMutation,
  useUnblockMutation,
  useSignOutEverywhereMutation,
  useExportDataMutation,
  useDeleteAccountMutation,
  usePushDeviceMutation,
} = peopleApi;
// Shared with the chat screens, so defined once in app/api.
export { useGetRecentPartnersQuery, useSendFriendRequestMutation, useRateMutation } from '../../store/api';
