import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router-dom';
import type { GroupSummary } from '@parley/contract/groups';
import { useGroupsQuery } from '../../features/groups/groupChatApi';
import { useConversations } from '../../features/direct/useConversations';
import { onRoomActivity } from '../../realtime/storedRoom';
import { useCurrentUser } from '../../store/hooks';
import { withGroupActivity } from './groupActivity';

/** How many rooms and conversations the sidebar lists. */
const SIDEBAR_ROOMS = 6;
const SIDEBAR_CONVERSATIONS = 5;
/**
 * Group counts move on live with each room's activity; the list is read again this often only to
 * catch what no notice tells (a room joined or left on another device, a notice lost in a drop).
 */
const GROUPS_POLL_MS = 5 * 60_000;

const openRoom = (pathname: string, prefix: string) =>
  pathname.startsWith(prefix) ? decodeURIComponent(pathname.slice(prefix.length).split('/')[0] ?? '') : null;

/**
 * The frame's live data: the user's group rooms and recent direct conversations with their
 * unread counts. When a room of theirs moves on (`room:activity`), a group room's count grows over
 * the list last read and the conversations are read again; both lists are read again when the
 * person leaves a room or a conversation they were reading. What is open now counts as
 * read, and so does what they saw there until something newer arrives (the server's read mark may
 * land after the list was read again).
 */
export function useFrameData() {
  const { pathname } = useLocation();
  const myId = useCurrentUser()?.userId;
  // The room list's default query: the same cache entry as /groupchat with no filter (member rooms first).
  const groups = useGroupsQuery({}, { pollingInterval: GROUPS_POLL_MS });
  const conversations = useConversations();
  const { refetch: refetchGroups } = groups;
  const { refetch: refetchConversations } = conversations;

  // Group messages count at once, over the list last read (no request per message); a room the list lacks reads it again.
  const listed = groups.data?.rooms;
  const [live, setLive] = useState<{ from: readonly GroupSummary[]; rooms: GroupSummary[] } | undefined>();
  const groupRooms = live && live.from === listed ? live.rooms : (listed ?? []);
  useEffect(
    () =>
      onRoomActivity((n) => {
        if (n.kind !== 'group' || !listed) return;
        if (!listed.some((r) => r.roomId === n.roomId && r.member)) return void refetchGroups();
        setLive((was) => {
          const base = was && was.from === listed ? was.rooms : listed;
          return { from: listed, rooms: withGroupActivity(base, n, myId) ?? base };
        });
      }),
    [listed, myId, refetchGroups],
  );

  // Reading a room marks it read on the server: on the way out, the counts are read again.
  const previous = useRef(pathname);
  useEffect(() => {
    const was = previous.current;
    previous.current = pathname;
    if (was === pathname) return;
    if (was.startsWith('/groupchat/')) void refetchGroups();
    if (was.startsWith('/messages/')) void refetchConversations();
  }, [pathname, refetchConversations, refetchGroups]);

  const inRoom = openRoom(pathname, '/groupchat/');
  const withFriend = openRoom(pathname, '/messages/');
  const memberRooms = groupRooms.filter((r) => r.member);
  const allDms = conversations.data?.conversations ?? [];
  const openRoomAt = memberRooms.find((r) => r.roomId === inRoom)?.lastActivityAt ?? null;
  const openDm = allDms.find((c) => c.username === withFriend);
  const openDmRoom = openDm?.roomId ?? null;
  const openDmAt = openDm?.lastMessage?.sentAt ?? null;

  // The latest message seen in each open room or conversation (server times: no clock skew).
  const [seen, setSeen] = useState<Record<string, number>>({});
  useEffect(() => {
    const mark = (key: string, at: number | null) => at !== null && setSeen((s) => (s[key] === at ? s : { ...s, [key]: at }));
    if (inRoom) mark(`group:${inRoom}`, openRoomAt);
    if (openDmRoom) mark(`direct:${openDmRoom}`, openDmAt);
  }, [inRoom, openRoomAt, openDmRoom, openDmAt]);
  const seenUpTo = (key: string, at: number | null) => at !== null && seen[key] !== undefined && at <= seen[key];

  const rooms = memberRooms.map((r) => ({
    ...r,
    unread: r.roomId === inRoom || seenUpTo(`group:${r.roomId}`, r.lastActivityAt) ? 0 : r.unread,
  }));
  const dms = allDms
    .map((c) => ({
      ...c,
      unread: c.username === withFriend || seenUpTo(`direct:${c.roomId}`, c.lastMessage?.sentAt ?? null) ? 0 : c.unread,
    }))
    .sort((a, b) => (b.lastMessage?.sentAt ?? 0) - (a.lastMessage?.sentAt ?? 0));

  return {
    rooms: rooms.slice(0, SIDEBAR_ROOMS),
    conversations: dms.slice(0, SIDEBAR_CONVERSATIONS),
    unread: {
      rooms: rooms.reduce((n, r) => n + r.unread, 0),
      messages: dms.reduce((n, c) => n + c.unread, 0),
    },
  };
}
