import { SAFETY_ERR } from '@parley/contract/safety';
import type { RoomMessage } from '@parley/contract/rooms';
import type { HeldEvidence, HeldMessage } from '../deps.ts';
import { DomainError } from '../platform/errors.ts';
import type { LiveSession, LiveStreams } from './streams.ts';

const held = (m: RoomMessage): HeldMessage => ({ id: m.id, senderId: m.senderId, senderName: m.senderName, text: m.text, sentAt: m.sentAt });

/**
 * A live stream's chat as a report reads it (read-only, while the stream lasts): only someone
 * watching it (or its broadcaster) may report from it, and only its chat counts as evidence.
 */
export function liveEvidence(streams: LiveStreams): HeldEvidence {
  const stream = (roomId: string) => {
    const s = streams.forReport(roomId);
    if (!s) throw new DomainError('not_found', SAFETY_ERR.streamEnded, 'stream_ended');
    return s;
  };
  return {
    async access(roomId, reporterId, otherId) {
      const s = stream(roomId);
      if (!s.present(reporterId)) throw new DomainError('forbidden', SAFETY_ERR.notInRoom, 'not_watching');
      return { otherInRoom: s.present(otherId) || s.chat.some((m) => m.senderId === otherId) };
    },
    async byIds(roomId, ids) {
      const wanted = new Set(ids);
      return stream(roomId).chat.filter((m) => wanted.has(m.id)).map(held);
    },
    async around(roomId, id, limit) {
      const chat = stream(roomId).chat;
      const at = chat.findIndex((m) => m.id === id);
      const end = at < 0 ? chat.length : Math.min(chat.length, at + 1 + Math.floor(limit / 2));
      return chat.slice(Math.max(0, end - limit), end).map(held);
    },
  };
}

/**
 * Whether a reporter met someone in a stream of this process that is on now: they watch the other's
 * stream, or the other wrote in the chat of a stream the reporter broadcasts or wrote in too.
 * Watches that ended are remembered elsewhere (see `watchOf`).
 */
export function liveEncounters(streams: LiveStreams) {
  return (reporterId: string, otherId: string): boolean =>
    streams.list().some((v) => {
      const s = streams.forReport(v.roomId);
      if (!s?.present(reporterId)) return false;
      if (v.broadcaster.userId === otherId) return true;
      const wrote = (userId: string) => s.chat.some((m) => m.senderId === userId);
      return wrote(otherId) && (v.broadcaster.userId === reporterId || wrote(reporterId));
    });
}

/** A viewer's session that ended, as the watch of a broadcaster's stream (undefined for the broadcaster's own). */
export function watchOf(streams: LiveStreams, session: LiveSession): { streamId: string; viewerId: string; broadcasterId: string } | undefined {
  if (session.role !== 'viewer') return undefined;
  try {
    return { streamId: session.roomId, viewerId: session.userId, broadcasterId: streams.get(session.roomId).broadcaster.userId };
  } catch {
    return undefined;
  }
}
