import type { IConfig } from 'peer';

/** Where PeerJS clients find the signalling server, on the API's origin or standalone. */
export const PEER_PATH = '/peerjs';
/** PeerJS's `key` is a public namespace, not a secret: authorisation is the peer ticket. */
export const PEER_KEY = 'parley';
/**
 * Open peer sockets one user may hold in one process: one per video room, with room for a
 * second tab and a socket the server has not yet seen die. More would only fill `concurrent_limit`.
 */
export const PEER_MAX_SOCKETS_PER_USER = 4;
/** Largest signalling message accepted (an SDP offer with many candidates is a few kB). */
export const PEER_MAX_MESSAGE_BYTES = 64 * 1024;

export type PeerServerOptions = Pick<
  IConfig,
  'key' | 'alive_timeout' | 'expire_timeout' | 'concurrent_limit' | 'allow_discovery' | 'cleanup_out_msgs'
> & {
  /** Mount path of the signalling server; the WebSocket lives at `${path}/peerjs`. */
  path: string;
};

/**
 * The options of the `peer` server. PeerJS clients send a heartbeat every 5 s, so 60 s of
 * silence means the peer is gone; discovery stays off so nobody can list who is online.
 */
export function peerServerOptions(env: NodeJS.ProcessEnv = process.env): PeerServerOptions {
  const limit = Number(env.PEER_CONCURRENT_LIMIT ?? 5000);
  return {
    path: PEER_PATH,
    key: PEER_KEY,
    alive_timeout: 60_000,
    // Messages for a peer that has not connected yet wait this long (the partner may still be opening).
    expire_timeout: 10_000,
    cleanup_out_msgs: 1000,
    concurrent_limit: Number.isInteger(limit) && limit > 0 ? limit : 5000,
    allow_discovery: false,
  };
}
