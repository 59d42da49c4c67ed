import type { GoLive, LiveList, LiveStream } from '@parley/contract/live';
import { api } from '../../app/api';

/** Streams live now, one stream, going live and ending, the stream's picture. */
export const liveApi = api.injectEndpoints({
  endpoints: (builder) => ({
    liveStreams: builder.query<LiveList, { category?: string; q?: string }>({
      query: (params) => ({ url: '/api/live', params }),
    }),
    liveStream: builder.query<LiveStream, string>({ query: (roomId) => ({ url: `/api/live/${encodeURIComponent(roomId)}` }) }),
    goLive: builder.mutation<LiveStream, GoLive>({ query: (body) => ({ url: '/api/live', method: 'POST', body }) }),
    endStream: builder.mutation<LiveStream, string>({
      query: (roomId) => ({ url: `/api/live/${encodeURIComponent(roomId)}/end`, method: 'POST' }),
    }),
    putThumbnail: builder.mutation<void, { roomId: string; image: string }>({
      query: ({ roomId, image }) => ({ url: `/api/live/${encodeURIComponent(roomId)}/thumbnail`, method: 'PUT', body: { image } }),
    }),
    thumbnail: builder.query<string, string>({
      // An <img> cannot send the bearer token: the picture is fetched and shown from a blob URL.
      query: (roomId) => ({
        url: `/api/live/${encodeURIComponent(roomId)}/thumbnail`,
        responseHandler: async (res: Response) => (res.ok ? URL.createObjectURL(await res.blob()) : ''),
      }),
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
} = liveApi;
