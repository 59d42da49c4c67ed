import { z } from 'zod';
import { text } from './text.ts';

/** An ICE server as RTCPeerConnection takes it (from the ICE_SERVERS environment variable). */
export type IceServer = { urls: string | string[]; username?: string; credential?: string };

/** GET /api/rtc/config: what a client needs to set up calls. */
export type RtcConfig = {
  iceServers: IceServer[];
  /**
   * `relay` when a TURN server is configured: media between strangers goes through it, so
   * neither learns the other's IP address from the call. `all` without one (one network).
   */
  iceTransportPolicy: 'all' | 'relay';
  /** The PeerJS signalling server: same origin unless `url` names another one. */
  peer: { path: string; key: string; url: string | null };
};

/**
 * GET /api/rtc/relay, public: whether this server relays 1:1 video between strangers (a TURN
 * server is configured), so the privacy policy can say whether a call shows your IP address.
 */
export type RtcRelay = { relayOnly: boolean };

/** Attempts of one video room's call, the first included (attempts 0 … MAX_CALL_ATTEMPTS - 1; see rtcEvents). */
export const MAX_CALL_ATTEMPTS = 3;
export const callAttemptSchema = z
  .number({ error: 'attempt must be a whole number' })
  .int('attempt must be a whole number')
  .min(0, 'attempt cannot be negative')
  .max(MAX_CALL_ATTEMPTS - 1, `attempt is at most ${MAX_CALL_ATTEMPTS - 1}`);

/** POST /api/rtc/peer: the peer ids of a video room and the ticket that lets the caller register theirs. */
export const peerTicketRequestSchema = z.object({
  roomId: text({ error: 'roomId is required' }).min(1, 'roomId is required').max(128),
  partnerId: text({ error: 'partnerId is required' }).min(1, 'partnerId is required').max(128),
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

/**
 * Placing a video room's call again. A call can fail while its room lives on: most often a
 * connection dropped while the call was being set up, and the room (held, then resumed) outlived
 * the call. The side whose call failed sends `video:redial` {roomId, attempt: the attempt that
 * failed} once it and its partner are both connected; the server answers both sides with
 * `video:redial` {roomId, attempt: the next one}, and each sets up the call afresh under the peer
 * ids of that attempt (POST /api/rtc/peer with `attempt`): PeerJS keeps an old id registered for
 * a while, so a new attempt cannot reuse it. An ask naming an attempt that is not the current one
 * is answered to the asker alone with the current attempt (the other side asked first, or the
 * asker missed the answer); past MAX_CALL_ATTEMPTS both sides get `chat:error` {event:
 * 'video:redial', code `call_attempts_exhausted`} and the room goes on by text. A page waits a
 * little before asking (1 s, then 3 s), so that a signalling server that is briefly unreachable
 * does not use up every attempt at once.
 */
export const rtcEvents = { redial: 'video:redial' } as const;
export const callRedialSchema = z.object({ roomId: text().min(1).max(64), attempt: callAttemptSchema });
export type CallRedial = z.infer<typeof callRedialSchema>;
