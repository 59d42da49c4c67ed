import { LIVE_GIFTS_PER_MINUTE, LIVE_JOINS_PER_MINUTE, LIVE_WATCHES_PER_USER, type LiveStream } from '@parley/contract/live';
import { followStore, follows, WENT_LIVE_LIMIT, wentLiveNotices } from './follows.ts';
import type { AppDeps } from '../deps.ts';
import type { Realtime } from '../realtime/server.ts';
import { startLocalStun } from './localStun.ts';
import { followRoutes, liveRoutes } from './routes.ts';
import { attachLiveSockets, liveOutbox, socketAddress } from './socket.ts';
import { SfuMeter, StreamForwarder } from './sfu.ts';
import { LiveStreams, type LiveSession } from './streams.ts';
import { memoryStreamDirectory, redisStreamDirectory } from './directory.ts';
import { liveActions } from './actions.ts';
import { liveRelay } from './relay.ts';
import type { RoomCore } from '../rooms/core.ts';
import { liveChatPolicy } from './chatPolicy.ts';
import type { RoomOps, RoomsElsewhere } from '../rooms/storedSocket.ts';
import { Refusal } from '../realtime/refusals.ts';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';

export type { LiveSession };

/** What the live area asks of the areas around it; server.ts wires it. */
export type LiveWiring = {
  /** A stream started (its broadcaster's media arrived), beside the followers' notices sent here. */
  wentLive?(stream: LiveStream): void;
  /** Someone stopped watching, or a broadcast ended: how long they were in it. */
  sessionEnded?(session: LiveSession): void;
  /** The shop's gift of gold: viewers' gifts to the broadcaster go through it. */
  gift?(fromUserId: string, g: { toUserId: string; amount: number; idempotencyKey: string }): Promise<{ gold: number }>;
};

/** What this process's SFU holds now and what it refused since it started. */
export type LiveStats = { openPeers: number; boundPorts: number; portsExhausted: number; expiredOffers: number; watches: number };

/** "10000-10100" → [10000, 10100]. */
export function portRange(value: string | undefined): [number, number] | undefined {
  const m = value?.match(/^(\d+)-(\d+)$/);
  if (!m) return undefined;
  const range: [number, number] = [Number(m[1]), Number(m[2])];
  return range[0] < range[1] ? range : undefined;
}

/**
 * Live streams as server.ts composes them: routes first, `attach` once the realtime server
 * exists. A stream lives in this process, with its SFU (werift) and its chat; with a cluster, events
 * of streams held by another process are relayed there.
 */
export async function createLive(deps: AppDeps, wiring: LiveWiring = {}) {
  const publicIp = deps.cfg.RTC_PUBLIC_IP;
  const stun = await startLocalStun(publicIp);
  const meter = new SfuMeter();
  const sfuOptions = {
    portRange: portRange(deps.cfg.RTC_PORT_RANGE),
    publicIp,
    stunUrl: stun.url,
    meter,
    onPortsExhausted: () =>
      deps.log.warn(
        { rtcPortRange: deps.cfg.RTC_PORT_RANGE, openPeers: meter.openPeers, boundPorts: meter.boundPorts, refused: meter.portsExhausted },
        'live: no free UDP port for a peer connection (RTC_PORT_RANGE exhausted); refused',
      ),
  };
  let realtime: Realtime | undefined;
  const store = followStore(deps.db);
  const notifyFollowers = wentLiveNotices({
    store,
    notifier: () => deps.notifier,
    limiter: deps.limiters.create(WENT_LIVE_LIMIT),
    log: deps.log,
  });
  // With REDIS_URL every process lists every stream; the media stays with the process named here
  // (its cluster id, so a holder that died is known by its heartbeat).
  const directory = deps.redis ? redisStreamDirectory(deps.redis, deps.cfg.REDIS_KEY_PREFIX) : memoryStreamDirectory();
  const node = deps.cluster?.instanceId ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const streams = new LiveStreams({
    forwarder: () => new StreamForwarder(sfuOptions),
    outbox: liveOutbox(
      () => realtime?.io,
      (roomId) => chat?.rooms.ended(roomId),
    ),
    wentLive(stream) {
      void notifyFollowers(stream).catch((err: unknown) => deps.log.warn({ err }, 'went-live notices failed'));
      wiring.wentLive?.(stream);
    },
    sessionEnded: wiring.sessionEnded,
    gift: wiring.gift,
    directory,
    node,
    onError: (err) => deps.log.warn({ err }, 'live directory write failed'),
    watchLimits: { perUser: LIVE_WATCHES_PER_USER, perAddress: deps.cfg.LIVE_WATCHES_PER_ADDRESS },
  });
  const joins = deps.limiters.create({ keyPrefix: 'live-join', points: LIVE_JOINS_PER_MINUTE, durationSeconds: 60 });
  const gifts = deps.limiters.create({ keyPrefix: 'live-gift', points: LIVE_GIFTS_PER_MINUTE, durationSeconds: 60 });
  // The room core runs every stream's chat; it exists once realtime does (attach).
  let chat: { rooms: RoomCore; ops: RoomOps } | undefined;
  const actions = liveActions(() => realtime?.io, streams, () => chat);
  // Scaled out, events of a stream held by another process go there (one stream fits on one process).
  const relay = deps.cluster
    ? liveRelay({ cluster: deps.cluster, directory, actions, getIo: () => realtime?.io, log: deps.log })
    : undefined;
  const chatPolicy = liveChatPolicy(streams);
  /** The chat of a stream another process holds, for the sockets here that watch or broadcast it. */
  const chatElsewhere: RoomsElsewhere | undefined = relay && {
    holds: (roomId) => !streams.holds(roomId) && relay.known(roomId) !== undefined,
    async run(roomId, event, socketId, user, payload) {
      const entry = relay.known(roomId);
      if (!entry) throw new Refusal('This stream has ended.', 'stream_ended');
      const caller = { userId: user.userId, username: user.username, viewerKey: socketId };
      const { ok, ...answer } = await relay.call(entry, 'room', caller, { roomId, event, payload });
      if (!ok) throw new Refusal((answer as { message: string }).message, (answer as { code: string }).code);
      return answer;
    },
  };
  return {
    routes: liveRoutes(deps, streams),
    followRoutes: followRoutes(deps, follows(store)),
    streams,
    chatPolicy,
    chatElsewhere,
    /** What this process's SFU holds and refused, for operators (and a metric later). */
    stats: (): LiveStats => ({
      openPeers: meter.openPeers,
      boundPorts: meter.boundPorts,
      portsExhausted: meter.portsExhausted,
      expiredOffers: streams.expiredOffers,
      watches: streams.watchCount,
    }),
    attach(rt: Realtime, rooms: { rooms: RoomCore; ops: RoomOps }) {
      realtime = rt;
      chat = rooms;
      attachLiveSockets(rt.io, streams, actions, relay, deps.log, { joins, gifts }, socketAddress);
    },
    async close() {
      relay?.close();
      await streams.close();
      await stun.close();
    },
  };
}
