import type { LiveSession, LiveStreams } from './streams.ts';

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
export function watchOf(
  streams: LiveStreams,
  session: LiveSession,
): { streamId: string; viewerId: string; broadcasterId: string } | undefined {
  if (session.role !== 'viewer') return undefined;
  try {
    return { streamId: session.roomId, viewerId: session.userId, broadcasterId: streams.get(session.roomId).broadcaster.userId };
  } catch {
    return undefined;
  }
}
