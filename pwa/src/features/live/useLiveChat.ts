import { useCallback, useEffect, useMemo } from 'react';
import { liveEvents, type LiveAck } from '@parley/contract/live';
import { useStoredRoomDeps } from '../../app/api';
import { useStoredRoom } from '../../realtime/storedRoom';
import { emitSocketWithAck } from '../../realtime/socket';

const ACK_TIMEOUT_MS = 8_000;

/**
 * A stream's chat: a room of kind `live` on the same connection as every conversation (catch-up
 * by last id after a drop, messages sent while offline resent once back), with the stream's
 * moderation beside it. A viewer is let into the chat by watching: `admitted` changes each time
 * the stream's server let this page in (after every reconnection), and the chat joins again then.
 * The broadcaster owns the chat and joins on every connection.
 */
export function useLiveChat(roomId: string, admitted: object | null | 'owner') {
  const [state, room] = useStoredRoom(useStoredRoomDeps(roomId, 'live', admitted === 'owner'));
  useEffect(() => {
    if (admitted && admitted !== 'owner') room?.rejoin();
  }, [admitted, room]);

  const moderators = useMemo(() => state.people.filter((p) => p.role === 'moderator').map((p) => p.userId), [state.people]);
  // A stream's mute lasts for the stream; lifting it sends null.
  const muted = state.mutedUntil !== null;

  /** A moderation request; answers with the refusal's message, or null when it was done. */
  const act = useCallback(
    async (event: string, payload: Record<string, unknown>): Promise<string | null> => {
      try {
        const ack = await emitSocketWithAck<LiveAck>(event, { roomId, ...payload }, ACK_TIMEOUT_MS);
        return ack.ok ? null : ack.message;
      } catch {
        return 'You are offline. Try again once you are back.';
      }
    },
    [roomId],
  );

  const moderation = useMemo(
    () => ({
      mute: (userId: string, on: boolean) => act(liveEvents.mute, { userId, muted: on }),
      ban: (userId: string) => act(liveEvents.ban, { userId }),
      appoint: (userId: string, on: boolean) => act(liveEvents.moderator, { userId, moderator: on }),
    }),
    [act],
  );

  return { state, room, moderators, muted, ...moderation };
}
