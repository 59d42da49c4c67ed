import { useEffect, useMemo } from 'react';
import { useStoredRoomDeps } from '../../store/api';
import { useAppDispatch } from '../../store/hooks';
import { useStoredRoom } from '../../realtime/storedRoom';
import { useModerate } from '../../components/conversation/moderation';
import { liveApi } from './liveApi';

/**
 * A stream's chat: a room of kind `live` on the same connection as every conversation (catch-up
 * by last id after a drop, messages sent while offline resent once back), moderated like every
 * room (`room:moderate`). A viewer is let into the chat by watching: `admitted` changes each time
 * the stream's server let this page in (after every reconnection), and the chat joins again then.
 * The broadcaster owns the chat and joins on every connection.
 */
export function useLiveChat(roomId: string, admitted: object | null | 'owner') {
  const [state, room] = useStoredRoom(useStoredRoomDeps(roomId, 'live', admitted === 'owner'));
  useEffect(() => {
    if (admitted && admitted !== 'owner') room?.rejoin();
  }, [admitted, room]);

  const moderators = useMemo(() => state.people.filter((p) => p.role === 'moderator').map((p) => p.userId), [state.people]);
  const moderate = useModerate(roomId);
  const dispatch = useAppDispatch();
  // The server tells every page of the room's moderators (this one too, after its own action) when
  // its mutes, bans or slow mode change, and a join after a drop may have missed some: the lists follow.
  const { restrictionsChanged } = state;
  useEffect(() => {
    if (restrictionsChanged > 0) dispatch(liveApi.util.invalidateTags([{ type: 'LiveRestrictions', id: roomId }]));
  }, [restrictionsChanged, dispatch, roomId]);

  return { state, room, moderators, moderate };
}
