import { SAFETY_ERR } from '@parley/contract/safety';
import { roomEvents, type Moderation } from '@parley/contract/rooms';
import type { RoomCore, RoomPolicy } from '../rooms/core.ts';
import type { LiveStreams } from './streams.ts';
import { STREAM_WORDS } from '../rooms/moderation.ts';

/** What a stream's moderators may do: a group's owner alone may kick, close, transfer, invite or make it read-only. */
const STREAM_ACTIONS = new Set<Moderation['action']>(['removeMessage', 'mute', 'unmute', 'ban', 'unban', 'appoint', 'dismiss', 'slowMode']);

/**
 * A stream's chat as a kind of room on the room core: held in this process's memory while the
 * stream lasts; its people are the broadcaster and their moderators; anyone watching may write.
 * Its moderation is the rooms' one path, stored in the broadcaster's channel.
 */
export function liveChatPolicy(streams: LiveStreams, core: () => RoomCore): RoomPolicy {
  return {
    kind: 'live',
    holds: (roomId) => streams.holds(roomId),
    access: (roomId, userId) => streams.chatAccess(roomId, userId),
    log: streams.chatLog,
    people: async (roomId, here) => streams.chatPeople(roomId, here),
    refusals: {
      notMember: { message: 'Watch the stream to chat in it.', code: 'not_watching' },
      banned: { message: 'The broadcaster removed you from this stream.', code: 'banned' },
    },
    gone: { message: SAFETY_ERR.streamEnded, code: 'stream_ended' },
    fixed: true,
    moderation: {
      room(roomId) {
        const storeId = streams.channelOf(roomId);
        if (!storeId) return null;
        return {
          kind: 'live',
          storeId,
          closed: false,
          allows: STREAM_ACTIONS,
          membersOnly: false,
          words: STREAM_WORDS,
          refusals: {
            notModerator: 'Only the broadcaster and their moderators can do that.',
            notOwner: 'Only the broadcaster can do that.',
          },
          changed(change) {
            for (const m of streams.moderated(roomId, change)) core().broadcast(roomId, roomEvents.changed, m);
          },
        };
      },
    },
  };
}
