import Router from '@koa/router';
import { peerAuthority, PEER_KEY, PEER_PATH, PEER_TICKET_TTL_S } from '@parley/peer-server';
import { peerTicketRequestSchema, type PeerTicketAnswer, type RtcConfig, type RtcRelay } from '@parley/contract/videoChat';
import { HttpError, parse } from '../platform/errors.ts';
import type { AppDeps, AuthState } from '../deps.ts';

/** Who the matchmaker paired: the partner of `userId` in `roomId`, or null when they are not in it. */
export type RoomPairing = { partnerOf(roomId: string, userId: string): Promise<string | null> };

export const NOT_IN_ROOM = 'You are not in this video chat any more. Press Start to meet someone new.';

/**
 * WebRTC set-up for video chat. The ICE servers come from ICE_SERVERS (none: host candidates
 * suffice on one network). Peer ids are scoped to a room (see peer-server/src/peerIds.ts) and
 * handed out only to the two users the matchmaker put in that room.
 */
export function rtcRoutes(deps: AppDeps, pairing: RoomPairing): Router {
  const router = new Router({ prefix: '/rtc' });
  const authority = peerAuthority(deps.secrets.jwtSecret);

  // Public: the privacy policy tells visitors before sign-up whether a call shows their address.
  router.get('/relay', (ctx) => {
    const body: RtcRelay = { relayOnly: hasTurn(deps.cfg.ICE_SERVERS ?? []) };
    ctx.body = body;
  });

  router.use(deps.requireUser);

  router.get('/config', (ctx) => {
    const iceServers = deps.cfg.ICE_SERVERS ?? [];
    const body: RtcConfig = {
      iceServers,
      iceTransportPolicy: hasTurn(iceServers) ? 'relay' : 'all',
      peer: { path: PEER_PATH, key: PEER_KEY, url: deps.cfg.PEERJS_URL ?? null },
    };
    ctx.set('Cache-Control', 'private, no-store');
    ctx.body = body;
  });

  router.post('/peer', async (ctx) => {
    const { user } = ctx.state as AuthState;
    const { roomId, partnerId, attempt } = parse(peerTicketRequestSchema, ctx.request.body);
    const partner = await pairing.partnerOf(roomId, user.userId);
    if (partner === null || partner !== partnerId) throw new HttpError(403, NOT_IN_ROOM, 'not_in_room');
    // Any attempt of the room's call: ids stay inside the room, and only the current attempt's are called or answered.
    const peerId = authority.roomPeerId(roomId, user.userId, attempt);
    const body: PeerTicketAnswer = {
      peerId,
      partnerPeerId: authority.roomPeerId(roomId, partnerId, attempt),
      ticket: await authority.mintTicket({ userId: user.userId, peerId }),
      expiresInS: PEER_TICKET_TTL_S,
    };
    ctx.set('Cache-Control', 'private, no-store');
    ctx.body = body;
  });

  return router;
}

/** Whether any of the ICE servers relays media (TURN), so calls can hide each side's address. */
export function hasTurn(servers: Array<{ urls: string | string[] }>): boolean {
  return servers.some((s) => (Array.isArray(s.urls) ? s.urls : [s.urls]).some((u) => /^turns?:/i.test(u)));
}
