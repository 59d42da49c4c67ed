// The realtime protocol: which socket events and payloads a client speaks. An installed PWA can
// keep running an old build for days, so every client says its version in the socket.io
// handshake and the server refuses one it no longer understands (docs/realtime.md, "Protocol version").

/** The version this build of the PWA speaks. Bump it when a socket event or payload changes shape. */
export const REALTIME_PROTOCOL = 3;

/**
 * The oldest version the server still accepts. Raise it (to REALTIME_PROTOCOL) when the server
 * drops what older clients relied on; clients that sent no version at all count as version 1.
 */
export const OLDEST_REALTIME_PROTOCOL = 3;

/** The `code` in a refused handshake's `data` when the client must reload to get a newer build. */
export const PROTOCOL_OUTDATED = 'protocol_outdated';
export const PROTOCOL_OUTDATED_MESSAGE = 'Parley has been updated. Reload to get the new version.';

/**
 * What a client sends as the socket.io handshake's `auth`; `locale` is the language the page shows,
 * so that refusals sent on the socket are worded in it.
 */
export type HandshakeAuth = { token: string; protocol: number; locale?: string };

/** The `data` of a connect_error the server raises on purpose. */
export type ConnectRefusal = { code: typeof PROTOCOL_OUTDATED };

/** True when a handshake's `auth.protocol` is a version the server still speaks. */
export function isSupportedProtocol(protocol: unknown): protocol is number {
  return typeof protocol === 'number' && Number.isInteger(protocol) && protocol >= OLDEST_REALTIME_PROTOCOL;
}

/** True when a connect_error is the server saying this client is too old (its `data.code`). */
export function isProtocolOutdated(err: unknown): boolean {
  const data = (err as { data?: unknown } | null)?.data;
  return typeof data === 'object' && data !== null && (data as { code?: unknown }).code === PROTOCOL_OUTDATED;
}

/** Server → client events about the connection itself. */
export const connectionEvents = {
  /**
   * The server this connection is on is restarting (a rolling deploy): reconnect, at a random
   * moment within `reconnectWithinMs` so that its clients do not all arrive at once; the proxy
   * sends the new connection to another replica. What the page was in (a chat) is held for it.
   */
  restarting: 'server:restarting',
} as const;

export type Restarting = { reconnectWithinMs: number };

/** How long a restarting server's clients spread their reconnections over. */
export const RESTART_RECONNECT_WITHIN_MS = 1000;
