import { createHmac, randomUUID } from 'node:crypto';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';

/**
 * Peer ids and peer tickets.
 *
 * Decision: a peer id is scoped to one chat room, one user and one attempt of the room's call,
 *   `<roomTag>-<userTag>`, roomTag = HMAC(secret, "room" roomId)[0..16 hex],
 *   userTag = HMAC(secret, "peer" roomId userId)[0..32 hex] for the first attempt and
 *   HMAC(secret, "peer" roomId userId attempt)[0..32 hex] for a later one (`video:redial`: the
 *   signalling server keeps an id registered until its alive timeout, so a call placed again
 *   needs fresh ids; every attempt of a room shares the room tag).
 * Only the server knows the secret, so nobody can compute anyone's id; the API hands a user
 * their own id and their partner's only for the room the matchmaker put them in. To register an
 * id the client must present a short-lived ticket (a JWT signed with the server secret, audience
 * `parley-peer`) naming that exact id and the user; the signalling server checks it before the
 * WebSocket upgrade, and a ticket registers once. It then relays OFFER/ANSWER/CANDIDATE/LEAVE
 * only between ids with the same roomTag, so even a leaked id cannot be called from outside its
 * room, and an id from an ended room is useless because its owner destroyed that peer.
 */
const ISSUER = 'parley';
const AUDIENCE = 'parley-peer';
export const PEER_TICKET_TTL_S = 120;

const PEER_ID = /^([0-9a-f]{16})-([0-9a-f]{32})$/;

export type PeerTicketClaims = { userId: string; peerId: string };
/** A verified ticket: its claims, its id (the jti) and when it expires. */
export type VerifiedPeerTicket = PeerTicketClaims & { ticketId: string; expiresAtMs: number };

export type PeerAuthority = {
  /** The id `userId` registers in room `roomId` for attempt `attempt` (default 0) of its call. */
  roomPeerId(roomId: string, userId: string, attempt?: number): string;
  mintTicket(claims: PeerTicketClaims): Promise<string>;
  /** The ticket's claims when it is authentic, unexpired and names `peerId`; otherwise null. */
  verifyTicket(ticket: string | null | undefined, peerId: string | null | undefined): Promise<VerifiedPeerTicket | null>;
};

/** The room part of a peer id, or null when the id is not one this server hands out. */
export function roomTagOf(peerId: string): string | null {
  return PEER_ID.exec(peerId)?.[1] ?? null;
}

export function peerAuthority(secret: Uint8Array, ttlSeconds = PEER_TICKET_TTL_S): PeerAuthority {
  // A key of its own for ids, so the id derivation never doubles as a token signature.
  const idKey = createHmac('sha256', secret).update('parley peer ids v1').digest();
  const tag = (...parts: string[]) => createHmac('sha256', idKey).update(parts.join('\0')).digest('hex');
  return {
    roomPeerId(roomId, userId, attempt = 0) {
      const user = attempt === 0 ? tag('peer', roomId, userId) : tag('peer', roomId, userId, String(attempt));
      return `${tag('room', roomId).slice(0, 16)}-${user.slice(0, 32)}`;
    },
    async mintTicket({ userId, peerId }) {
      return new SignJWT({ pid: peerId })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(userId)
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setJti(randomUUID())
        .setIssuedAt()
        .setExpirationTime(`${ttlSeconds}s`)
        .sign(secret);
    },
    async verifyTicket(ticket, peerId) {
      if (!ticket || !peerId || !roomTagOf(peerId)) return null;
      try {
        const { payload } = await jwtVerify(ticket, secret, { issuer: ISSUER, audience: AUDIENCE, algorithms: ['HS256'] });
        if (typeof payload.sub !== 'string' || payload.pid !== peerId) return null;
        // The jti is what makes a ticket usable once (see usedTickets.ts); every ticket minted here has one.
        if (typeof payload.jti !== 'string' || !payload.jti || typeof payload.exp !== 'number') return null;
        return { userId: payload.sub, peerId, ticketId: payload.jti, expiresAtMs: payload.exp * 1000 };
      } catch (e) {
        if (e instanceof joseErrors.JOSEError) return null;
        throw e;
      }
    },
  };
}
