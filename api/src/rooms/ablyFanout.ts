import { ablyChannel } from '@parley/contract/groups';
import { roomEvents as wire, type RoomKind } from '@parley/contract/rooms';
import type { Logger } from '../platform/logger.ts';
import type { StoredRoomFanout } from './core.ts';

export const ABLY_REST_DEFAULT = 'https://rest.ably.io';
/** What a room's page follows on its channel; the rare rest (settings changed) stays on socket.io. */
const HOSTED_EVENTS = new Set<string>([wire.message, wire.changed, wire.typing, wire.people, wire.read, wire.removed]);

/**
 * Group rooms fanned out through Ably (ABLY_API_KEY set): what a room's followers hear is
 * published to the room's channel over Ably's REST API, which members subscribe to with a token
 * of the API's (ablyclienttoken). Everything else (watching, direct rooms, messages to one
 * user's devices) stays on socket.io, and so does a publish Ably refused: the client listens to
 * both, so a failure costs nothing but the hop.
 */
export function ablyFanout(
  inner: StoredRoomFanout,
  opts: {
    apiKey: string;
    restUrl?: string | undefined;
    /** The room's kind when this process has seen it; unknown rooms go through socket.io. */
    kindOf(roomId: string): RoomKind | undefined;
    log: Logger;
  },
): StoredRoomFanout {
  const base = (opts.restUrl ?? ABLY_REST_DEFAULT).replace(/\/$/, '');
  const authorization = `Basic ${Buffer.from(opts.apiKey).toString('base64')}`;
  // One room's publishes go one after another, so its channel carries them in the order they were made.
  const chains = new Map<string, Promise<void>>();

  async function publish(roomId: string, event: string, payload: unknown): Promise<void> {
    const channel = ablyChannel(roomId);
    try {
      const res = await fetch(`${base}/channels/${encodeURIComponent(channel)}/messages`, {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/json' },
        // Ably's JSON encoding: the client library decodes `data` back into the object.
        body: JSON.stringify({ name: event, data: JSON.stringify(payload), encoding: 'json' }),
        signal: AbortSignal.timeout(5000),
      });
      if (res.ok) return;
      opts.log.warn({ status: res.status, channel, event }, 'ably publish refused; sent over socket.io');
    } catch (err) {
      opts.log.warn({ err, channel, event }, 'ably publish failed; sent over socket.io');
    }
    inner.toRoom(roomId, event, payload);
  }

  return {
    ...inner,
    toRoom(roomId, event, payload, exceptSocket) {
      if (opts.kindOf(roomId) !== 'group' || !HOSTED_EVENTS.has(event)) return inner.toRoom(roomId, event, payload, exceptSocket);
      const previous = chains.get(roomId) ?? Promise.resolve();
      const current = previous.then(() => publish(roomId, event, payload));
      chains.set(roomId, current);
      void current.then(() => {
        if (chains.get(roomId) === current) chains.delete(roomId);
      });
    },
  };
}
