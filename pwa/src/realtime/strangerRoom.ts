import { useEffect } from 'react';
import type { RoomState } from './roomState';
import { useSocketStatus } from './socket';
import { useStoredRoom, type StoredRoomConnection, type StoredRoomDeps, type StoredRoomState } from './storedRoom';

/**
 * A 1:1 chat's messages, on the one room connection (storedRoom.ts): the room the conversation
 * happened in, kept readable after it ended. The server lets a page in only once it holds its
 * seat, so the room joins when the match arrives and again each time our page took the held chat
 * back after a drop (catching up from the last id, sending again what waited); the room connection
 * (roomConnection.ts) keeps the search, the match and the partner leaving or dropping.
 */
export function useStrangerRoom(
  room: Pick<RoomState, 'roomId' | 'conversationRoomId' | 'reconnecting'>,
  /** The app's room deps for `room.conversationRoomId`, joining when told (not on every connect). */
  deps: StoredRoomDeps | null,
): [StoredRoomState, StoredRoomConnection | null] {
  const [state, conn] = useStoredRoom(deps);
  const connected = useSocketStatus() === 'connected';
  const seated = room.roomId !== null && room.roomId === room.conversationRoomId && !room.reconnecting;
  useEffect(() => {
    if (conn && seated && connected) conn.rejoin();
  }, [conn, seated, connected]);
  return [state, conn];
}
