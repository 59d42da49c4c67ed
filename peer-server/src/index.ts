export { mountPeerServer, strictHeaders, type PeerMount, type MountOptions, type PeerLog } from './mount.ts';
export { peerServerOptions, PEER_PATH, PEER_KEY, PEER_MAX_SOCKETS_PER_USER, type PeerServerOptions } from './options.ts';
export { peerAuthority, roomTagOf, PEER_TICKET_TTL_S, type PeerAuthority, type PeerTicketClaims } from './peerIds.ts';
export { mayRelay } from './relayPolicy.ts';
