import type { RtcRelay } from '@parley/contract/videoChat';
import { api } from '../../store/api';

export const legalApi = api.injectEndpoints({
  endpoints: (builder) => ({
    /** Whether this server relays 1:1 video (public: read before sign-up). */
    rtcRelay: builder.query<RtcRelay, void>({ query: () => '/api/rtc/relay' }),
  }),
});

export const { useRtcRelayQuery } = legalApi;
