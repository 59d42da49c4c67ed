import type { GroupSummary } from '@parley/contract/groups';
import type { UnreadNotice } from '@parley/contract/rooms';

/**
 * The user's group list after a room of theirs told it moved on (`room:activity`): that room's
 * unread count grows by the messages since the one the list knew (the user's own do not count),
 * and its last activity is the notice's. Undefined when the list does not have the room as one of
 * theirs (a room joined elsewhere): the list must be read again.
 */
export function withGroupActivity(rooms: readonly GroupSummary[], n: UnreadNotice, myId: string | undefined): GroupSummary[] | undefined {
  const i = rooms.findIndex((r) => r.roomId === n.roomId && r.member);
  if (i < 0) return undefined;
  const r = rooms[i]!;
  // An older notice (crossed with a fresher list) changes nothing.
  if (n.lastMessageId <= r.lastMessageId) return [...rooms];
  const added = n.senderId === myId ? 0 : n.lastMessageId - r.lastMessageId;
  const next = [...rooms];
  next[i] = { ...r, lastMessageId: n.lastMessageId, unread: r.unread + added, lastActivityAt: Math.max(n.sentAt, r.lastActivityAt ?? 0) };
  return next;
}
