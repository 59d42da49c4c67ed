import type { CreateGroupInput, GroupDetail, GroupSummary, Moderation, ModerationEntry } from '@parley/contract/groups';
import { api } from '../../store/api';

export const groupChatApi = api.enhanceEndpoints({ addTagTypes: ['Group'] }).injectEndpoints({
  endpoints: (builder) => ({
    groups: builder.query<{ rooms: GroupSummary[]; languages?: string[] }, { category?: string; q?: string; language?: string }>({
      query: (params) => ({ url: '/api/groups', params }),
      providesTags: ['Group'],
    }),
    group: builder.query<GroupDetail, { roomId: string; invite?: string | undefined }>({
      query: ({ roomId, invite }) => ({ url: `/api/groups/${encodeURIComponent(roomId)}`, params: invite ? { invite } : {} }),
      providesTags: (_r, _e, { roomId }) => [{ type: 'Group', id: roomId }],
    }),
    createGroup: builder.mutation<GroupDetail, CreateGroupInput>({
      query: (body) => ({ url: '/api/groups', method: 'POST', body }),
      invalidatesTags: ['Group'],
    }),
    joinGroup: builder.mutation<GroupDetail, { roomId: string; invite?: string | undefined }>({
      query: ({ roomId, invite }) => ({
        url: `/api/groups/${encodeURIComponent(roomId)}/join`,
        method: 'POST',
        body: invite ? { invite } : {},
      }),
      invalidatesTags: ['Group'],
    }),
    leaveGroup: builder.mutation<null, string>({
      query: (roomId) => ({ url: `/api/groups/${encodeURIComponent(roomId)}/leave`, method: 'POST' }),
      invalidatesTags: ['Group'],
    }),
    moderate: builder.mutation<{ ok: true; invite?: string }, { roomId: string; action: Moderation }>({
      query: ({ roomId, action }) => ({ url: `/api/groups/${encodeURIComponent(roomId)}/moderation`, method: 'POST', body: action }),
      invalidatesTags: (_r, _e, { roomId }) => [{ type: 'Group', id: roomId }, 'Group'],
    }),
    moderationLog: builder.query<{ entries: ModerationEntry[] }, string>({
      query: (roomId) => ({ url: `/api/groups/${encodeURIComponent(roomId)}/moderation` }),
      providesTags: (_r, _e, roomId) => [{ type: 'Group', id: roomId }],
    }),
  }),
});

export const {
  useGroupsQuery,
  useGroupQuery,
  useCreateGroupMutation,
  useJoinGroupMutation,
  useLeaveGroupMutation,
  useModerateMutation,
  useModerationLogQuery,
} = groupChatApi;
