import { useCallback, useEffect, useMemo } from 'react';
import { restrictionsCheck, roomEvents, type Moderation } from '@parley/contract/rooms';
import { useStoredRoomDeps } from '../../store/api';
import { useAppDispatch } from '../../store/hooks';
import { useStoredRoom } from '../../realtime/storedRoom';
import { checkPayload, getSocketStatus, onSocketEvent, subscribeSocketStatus } from '../../realtime/socket';
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
  const moderateRoom = useModerate(roomId);
  const dispatch = useAppDispatch();
  // Whatever was done from this page (the chat's menu, the moderation panel), the list of mutes and bans follows.
  const moderate = useCallback(
    async (m: Moderation) => {
      const problem = await moderateRoom(m);
      if (problem === null) dispatch(liveApi.util.invalidateTags([{ type: 'LiveRestrictions', id: roomId }]));
      return problem;
    },
    [moderateRoom, dispatch, roomId],
  );

  // Done elsewhere (another moderator, another page): the server tells the room's moderators, and
  // a page back from a drop reads the lists again for what it missed meanwhile.
  useEffect(() => {
    const reread = () => dispatch(liveApi.util.invalidateTags([{ type: 'LiveRestrictions', id: roomId }]));
    const offChange = onSocketEvent(roomEvents.restrictions, (raw) => {
      if (checkPayload('rooms', restrictionsCheck, roomEvents.restrictions, raw)?.roomId === roomId) reread();
    });
    let was = getSocketStatus();
    const offStatus = subscribeSocketStatus(() => {
      const now = getSocketStatus();
      if (now === 'connected' && was !== 'connected') reread();
      was = now;
    });
    return () => {
      offChange();
      offStatus();
    };
  }, [dispatch, roomId]);

  return { state, room, moderators, moderate };
}
