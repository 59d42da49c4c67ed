import type { AppealBody, AppealView, ModerationCase, ModerationDecision, QueueEntry, SupportItem, Warning } from '@parley/contract/safety';
import { api } from '../../store/api';

export type { SupportItem };

export const safetyApi = api.injectEndpoints({
  endpoints: (builder) => ({
    moderationQueue: builder.query<QueueEntry[], void>({ query: () => '/api/moderation/queue' }),
    moderationCase: builder.query<ModerationCase, string>({ query: (userId) => `/api/moderation/users/${encodeURIComponent(userId)}` }),
    decide: builder.mutation<unknown, ModerationDecision>({
      query: (body) => ({ url: '/api/moderation/decisions', method: 'POST', body }),
    }),
    openAppeals: builder.query<AppealView[], void>({ query: () => '/api/moderation/appeals' }),
    decideAppeal: builder.mutation<null, { id: string; grant: boolean; note: string }>({
      query: ({ id, ...body }) => ({ url: `/api/moderation/appeals/${encodeURIComponent(id)}`, method: 'POST', body }),
    }),
    supportQueue: builder.query<SupportItem[], void>({ query: () => '/api/moderation/support' }),
    supportHandled: builder.mutation<null, string>({
      query: (id) => ({ url: `/api/moderation/support/${encodeURIComponent(id)}/handled`, method: 'POST' }),
    }),
    supportReply: builder.mutation<null, { id: string; text: string }>({
      query: ({ id, text }) => ({ url: `/api/moderation/support/${encodeURIComponent(id)}/reply`, method: 'POST', body: { text } }),
    }),
    /** The snapshot of a report, as an object URL the page revokes when done. */
    reportSnapshot: builder.query<string, string>({
      query: (id) => ({
        url: `/api/moderation/reports/${encodeURIComponent(id)}/snapshot`,
        responseHandler: async (res) => URL.createObjectURL(await res.blob()),
      }),
      keepUnusedDataFor: 0,
    }),
    myWarnings: builder.query<Warning[], void>({ query: () => '/api/safety/warnings' }),
    warningSeen: builder.mutation<null, string>({
      query: (id) => ({ url: `/api/safety/warnings/${encodeURIComponent(id)}/seen`, method: 'POST' }),
    }),
    appeal: builder.mutation<{ ok: true }, AppealBody>({ query: (body) => ({ url: '/api/safety/appeals', method: 'POST', body }) }),
  }),
});

export const {
  useModerationQueueQuery,
  useModerationCaseQuery,
  useDecideMutation,
  useOpenAppealsQuery,
  useDecideAppealMutation,
  useSupportQueueQuery,
  useSupportHandledMutation,
  useSupportReplyMutation,
  useReportSnapshotQuery,
  useMyWarningsQuery,
  useWarningSeenMutation,
  useAppealMutation,
} = safetyApi;
