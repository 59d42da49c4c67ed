import { z } from 'zod';
import { callAttemptSchema } from './chat.ts';

/** An ICE server as RTCPeerConnection takes it (from the ICE_SERVERS environment variable). */
export type IceServer = { urls: string | string[]; username?: string; credential?: string };

/** GET /api/rtc/config: what a client needs to set up calls. */
export type RtcConfig = {
  iceServers: IceServer[];
  /** The PeerJS signalling server: same origin unless `url` names another one. */
  peer: { path: string; key: string; url: string | null };
};

/** POST /api/rtc/peer: the peer ids of a video room and the ticket that lets the caller register theirs. */
export const peerTicketRequestSchema = z.object({
  roomId: z.string({ error: 'roomId is required' }).min(1, 'roomId is required').max(128),
  partnerId: z.string({ error: 'partnerId is required' }).min(1, 'partnerId is required').max(128),
  /** Which attempt of the room's call (`video:redial`); the first is 0. Each attempt has its own peer ids. */
  attempt: callAttemptSchema.default(0),
});
export type PeerTicketRequest = z.infer<typeof peerTicketRequestSchema>;

export type PeerTicketAnswer = {
  peerId: string;
  partnerPeerId: string;
  /** Sent as the PeerJS `token`; valid for `expiresInS` seconds, for registering `peerId` only. */
  ticket: string;
  expiresInS: number;
};
