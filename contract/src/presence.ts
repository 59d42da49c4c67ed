/** Who is online: the `getOnlineUsers` list and its changes. */

export type OnlineUser = { userId: string; username: string; avatar: string };

export const presenceEvents = {
  /** Server → client: the whole online list (OnlineUser[]). */
  onlineUsers: 'getOnlineUsers',
  /** Server → client: what changed since (OnlineUsersDelta), for sockets that asked for deltas. */
  onlineUsersDelta: 'getOnlineUsers:delta',
} as const;

/** `getOnlineUsers` changes are coalesced to at most one broadcast per this interval (longer with many users online). */
export const PRESENCE_COALESCE_MS = 200;

/**
 * Presence at scale. Every client gets the full `getOnlineUsers` list on connect. After that:
 * - by default (`query.presence` absent) the full list again when it changes, coalesced; because
 *   that costs O(online²) bytes, the interval grows with the square of the online count
 *   (200 ms up to 250 users, ~13 s at 2000, at most 30 s);
 * - with the handshake query `presence: 'delta'`, only `getOnlineUsers:delta` (the users who
 *   came online, the ids who went offline, the new count) every PRESENCE_COALESCE_MS, batched up
 *   to 1 s when thousands are online: O(changes) per client. Apply it with `applyOnlineUsersDelta`.
 */
export const PRESENCE_DELTA_QUERY = { presence: 'delta' } as const;
export type OnlineUsersDelta = { added: OnlineUser[]; removed: string[]; count: number };

/** Applies a presence delta; idempotent, so a delta that overlaps the list it follows is harmless. */
export function applyOnlineUsersDelta(list: readonly OnlineUser[], delta: OnlineUsersDelta): OnlineUser[] {
  const byId = new Map(list.map((u) => [u.userId, u]));
  for (const id of delta.removed) byId.delete(id);
  for (const u of delta.added) byId.set(u.userId, u);
  return [...byId.values()];
}
