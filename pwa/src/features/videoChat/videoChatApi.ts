import type { PeerTicketAnswer, PeerTicketRequest, RtcConfig } from '@parley/contract/videoChat';
import { api } from '../../store/api';

/** The WebRTC set-up calls: ICE servers and signalling location, and the peer ids of a room. */
export const videoChatApi = api.injectEndpoints({
  endpoints: (builder) => ({
    rtcConfig: builder.query<RtcConfig, void>({ query: () => ({ url: '/api/rtc/config' }) }),
    peerTicket: builder.mutation<PeerTicketAnswer, PeerTicketRequest>({
      query: (body) => ({ url: '/api/rtc/peer', method: 'POST', body }),
    }),
  }),
});

export const { useRtcConfigQuery, usePeerTicketMutation } = videoChatApi;
