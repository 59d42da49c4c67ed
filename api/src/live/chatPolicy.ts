import { SAFETY_ERR } from '@parley/contract/safety';
import type { RoomPolicy } from '../rooms/core.ts';
import type { LiveStreams } from './streams.ts';

/**
 * A stream's chat as a kind of room on the room core: held in this process's memory while the
 * stream lasts; its people are the broadcaster and their moderators; anyone watching may write.
 */
export function liveChatPolicy(streams: LiveStreams): RoomPolicy {
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
  };
}
