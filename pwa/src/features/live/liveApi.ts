import {
  liveEvents,
  type GoLive,
  type LiveGift,
  type LiveGiftAnswer,
  type LiveList,
  type LiveRecord,
  type LiveRestrictions,
  type LiveStream,
  type LiveSummary,
} from '@parley/contract/live';
import type { MissionOverview } from '@parley/contract/missions';
import { api } from '../../store/api';
import { emitSocketWithAck } from '../../realtime/socket';

const GIFT_ACK_TIMEOUT_MS = 10_000;

const path = (roomId: string) => `/api/live/${encodeURIComponent(roomId)}`;

/** Streams live now, one stream, going live and ending, the stream's picture, its moderation and its figures. */
export const liveApi = api.enhanceEndpoints({ addTagTypes: ['LiveRestrictions'] }).injectEndpoints({
  endpoints: (builder) => ({
    liveStreams: builder.query<LiveList, { category?: string; q?: string }>({
      query: (params) => ({ url: '/api/live', params }),
    }),
    liveStream: builder.query<LiveStream, string>({ query: (roomId) => ({ url: path(roomId) }) }),
    goLive: builder.mutation<LiveStream, GoLive>({ query: (body) => ({ url: '/api/live', method: 'POST', body }) }),
    endStream: builder.mutation<LiveStream, string>({
      query: (roomId) => ({ url: `${path(roomId)}/end`, method: 'POST' }),
    }),
    putThumbnail: builder.mutation<void, { roomId: string; image: string }>({
      query: ({ roomId, image }) => ({ url: `${path(roomId)}/thumbnail`, method: 'PUT', body: { image } }),
    }),
    thumbnail: builder.query<string, string>({
      // An <img> cannot send the bearer token: the picture is fetched and shown from a blob URL.
      query: (roomId) => ({
        url: `${path(roomId)}/thumbnail`,
        responseHandler: async (res: Response) => (res.ok ? URL.createObjectURL(await res.blob()) : ''),
      }),
    }),
    /** Who is muted or banned in the stream's channel (its broadcaster and moderators only). */
    liveRestrictions: builder.query<LiveRestrictions, string>({
      query: (roomId) => ({ url: `${path(roomId)}/restrictions` }),
      providesTags: (_r, _e, roomId) => [{ type: 'LiveRestrictions', id: roomId }],
    }),
    /** What happened in the stream's chat (its broadcaster and admins only). */
    liveRecord: builder.query<LiveRecord, string>({ query: (roomId) => ({ url: `${path(roomId)}/record` }) }),
    /** An ended stream's figures, for its broadcaster. */
    liveSummary: builder.query<LiveSummary, string>({ query: (roomId) => ({ url: `${path(roomId)}/summary` }) }),
    /**
     * A gift of gold over the stream's socket (paid once per key); its answer's balance becomes the
     * one shown. No answer in time is `{ error: 'timeout' }`: the same key may be sent again.
     */
    sendGift: builder.mutation<LiveGiftAnswer, LiveGift>({
      async queryFn(gift) {
        try {
          return { data: await emitSocketWithAck<LiveGiftAnswer>(liveEvents.gift, gift, GIFT_ACK_TIMEOUT_MS) };
        } catch {
          return { error: { status: 'TIMEOUT_ERROR' as const, error: 'timeout' } };
        }
      },
      async onQueryStarted(_gift, { dispatch, queryFulfilled }) {
        const answer = await queryFulfilled.then((r) => r.data).catch(() => null);
        if (answer?.ok) dispatch(liveApi.util.upsertQueryData('goldBalance', undefined, answer.gold));
      },
    }),
    /** The viewer's gold, from their missions overview (the balance a gift is paid from). */
    goldBalance: builder.query<number, void>({
      query: () => '/api/missions',
      transformResponse: (overview: MissionOverview) => overview.gold,
      providesTags: ['Mission'],
    }),
  }),
});

export const {
  useLiveStreamsQuery,
  useLiveStreamQuery,
  useGoLiveMutation,
  useEndStreamMutation,
  usePutThumbnailMutation,
  useThumbnailQuery,
  useLiveRestrictionsQuery,
  useLiveRecordQuery,
  useLiveSummaryQuery,
  useGoldBalanceQuery,
  useSendGiftMutation,
} = liveApi;
