/** Who is online: the `getOnlineUsers` count and pages of the list, and their changes. */
import { z } from 'zod';

export type OnlineUser = { userId: string; username: string; avatar: string };

/** Users in one page of the online list. */
export const ONLINE_PAGE_SIZE = 50;

/**
 * One page of who is online, with the count of everyone online. The list is ordered by userId
 * (friends of the recipient come first on the first page); `cursor` asks for the page after it,
 * null at the end.
 */
export type OnlineUsersPage = { count: number; users: OnlineUser[]; cursor: string | null };

/**
 * What changed among what the client holds (its pages): `removed` are held users who went offline;
 * `added` are users who came online while the client held fewer than ONLINE_PAGE_SIZE, or its
 * friends; `count` is always the new count of everyone online. Coalesced to one every
 * PRESENCE_COALESCE_MS, batched longer (up to 600 ms) when thousands are online.
 */
export type OnlineUsersDelta = { added: OnlineUser[]; removed: string[]; count: number };

export const presenceEvents = {
  /** Server → client on connect: the first page (OnlineUsersPage); the client's list starts over. */
  onlineUsers: 'getOnlineUsers',
  /** Client → server: the page after `cursor` (OnlineUsersMore); answered by `onlineUsersPage`. */
  more: 'getOnlineUsers:more',
  /** Server → client: a further page (OnlineUsersPage), added to what the client holds. */
  onlineUsersPage: 'getOnlineUsers:page',
  /** Server → client: changes (OnlineUsersDelta). */
  onlineUsersDelta: 'getOnlineUsers:delta',
} as const;

/** A cursor is the userId a page ended with. */
export const onlineUsersMoreSchema = z.object({ cursor: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'Invalid cursor') }).strict();
export type OnlineUsersMore = z.infer<typeof onlineUsersMoreSchema>;

/** Page requests a user may make: a steady rate and a burst (scrolling through a long list). */
export const ONLINE_PAGES_PER_S = 2;
export const ONLINE_PAGES_BURST = 10;

/** Presence changes are coalesced to at most one delta per this interval (longer with many users online). */
export const PRESENCE_COALESCE_MS = 200;

/** Applies a presence delta; idempotent, so a delta that overlaps the list it follows is harmless. */
export function applyOnlineUsersDelta(list: readonly OnlineUser[], delta: OnlineUsersDelta): OnlineUser[] {
  return mergeOnlineUsers(list, delta.added, delta.removed);
}

/** The list with `added` in (once each, by userId) and `removed` out. */
export function mergeOnlineUsers(list: readonly OnlineUser[], added: readonly OnlineUser[], removed: readonly string[] = []): OnlineUser[] {
  const byId = new Map(list.map((u) => [u.userId, u]));
  for (const id of removed) byId.delete(id);
  for (const u of added) byId.set(u.userId, u);
  return [...byId.values()];
}
