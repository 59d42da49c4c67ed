import { roomTagOf } from './peerIds.ts';

/** Message types a PeerJS client may send; EXPIRE, OPEN, ID-TAKEN and ERROR come only from the server. */
const RELAYED = new Set(['OFFER', 'ANSWER', 'CANDIDATE', 'LEAVE']);

/**
 * Whether the signalling server passes on a message a client sent. Heartbeats always; signalling
 * only to a peer of the same room (see peerIds.ts); anything else is dropped.
 */
export function mayRelay(srcPeerId: string, raw: string): boolean {
  let message: unknown;
  try {
    message = JSON.parse(raw);
  } catch {
    return false;
  }
  if (typeof message !== 'object' || message === null) return false;
  const { type, dst } = message as { type?: unknown; dst?: unknown };
  if (type === 'HEARTBEAT') return true;
  if (typeof type !== 'string' || !RELAYED.has(type)) return false;
  // A LEAVE without dst unregisters the sender itself.
  if (type === 'LEAVE' && (dst === undefined || dst === null)) return true;
  if (typeof dst !== 'string') return false;
  const room = roomTagOf(srcPeerId);
  return room !== null && roomTagOf(dst) === room;
}
