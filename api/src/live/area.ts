import { LIVE_JOINS_PER_MINUTE, type LiveStream } from '@parley/contract/live';
import type { AppDeps } from '../deps.ts';
import type { Realtime } from '../realtime/server.ts';
import { startLocalStun } from './localStun.ts';
import { liveRoutes } from './routes.ts';
import { attachLiveSockets, liveOutbox } from './socket.ts';
import { StreamForwarder } from './sfu.ts';
import { LiveStreams, type LiveSession } from './streams.ts';

export type { LiveSession };

/** What the live area asks of the areas around it; server.ts wires it. */
export type LiveWiring = {
  /** A stream started (its broadcaster's media arrived): followers may be told. */
  wentLive?(stream: LiveStream): void;
  /** Someone stopped watching, or a broadcast ended: how long they were in it. */
  sessionEnded?(session: LiveSession): void;
  /** The custom emoji shortcodes in a chat message that its sender owns. */
  verifiedEmoji?(userId: string, text: string): string[] | undefined;
};

/** "10000-10100" → [10000, 10100]. */
export function portRange(value: string | undefined): [number, number] | undefined {
  const m = value?.match(/^(\d+)-(\d+)$/);
  if (!m) return undefined;
  const range: [number, number] = [Number(m[1]), Number(m[2])];
  return range[0] < range[1] ? range : undefined;
}

/**
 * Live streams as server.ts composes them: routes first, `attach` once the realtime server
 * exists. A stream lives in this process, with its SFU (werift) and its chat.
 */
export async function createLive(deps: AppDeps, wiring: LiveWiring = {}) {
  const publicIp = deps.cfg.RTC_PUBLIC_IP;
  const stun = await startLocalStun(publicIp);
  const sfuOptions = { portRange: portRange(deps.cfg.RTC_PORT_RANGE), publicIp, stunUrl: stun.url };
  let realtime: Realtime | undefined;
  const streams = new LiveStreams({
    forwarder: () => new StreamForwarder(sfuOptions),
    outbox: liveOutbox(() => realtime?.io),
    wentLive: wiring.wentLive,
    sessionEnded: wiring.sessionEnded,
    verifiedEmoji: wiring.verifiedEmoji,
  });
  const joins = deps.limiters.create({ keyPrefix: 'live-join', points: LIVE_JOINS_PER_MINUTE, durationSeconds: 60 });
  return {
    routes: liveRoutes(deps, streams),
    streams,
    attach(rt: Realtime) {
      realtime = rt;
      attachLiveSockets(rt.io, streams, deps.log, joins);
    },
    async close() {
      await streams.close();
      await stun.close();
    },
  };
}
