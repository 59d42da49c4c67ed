import { LIVE_GIFTS_PER_MINUTE, LIVE_JOINS_PER_MINUTE, LIVE_WATCHES_PER_USER } from '@parley/contract/live';
import { followStore, follows, WENT_LIVE_LIMIT, wentLiveNotices } from './follows.ts';
import type { AppDeps, Notifier } from '../deps.ts';
import { typedEvents } from '../rooms/events.ts';
import { liveEncounters, watchOf } from './evidence.ts';
import { liveChatPolicy } from './chatPolicy.ts';
import { channelStore } from './channels.ts';
import { streamRecords } from './record.ts';
import { startLocalStun } from './localStun.ts';
import { followRoutes, liveRoutes } from './routes.ts';
import { attachLiveSockets, liveOutbox, socketAddress } from './socket.ts';
import { SfuMeter, StreamForwarder } from './sfu.ts';
import { LiveStreams, type LiveSession } from './streams.ts';
import { memoryStreamDirectory, redisStreamDirectory } from './directory.ts';
import { liveActions } from './actions.ts';
import { liveRelay } from './relay.ts';
import type { RoomCore } from '../rooms/core.ts';
import type { RoomModeration } from '../rooms/moderation.ts';
import type { RoomOps, RoomsElsewhere } from '../rooms/storedSocket.ts';
import { Refusal } from '../realtime/refusals.ts';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { sfuPortRefused } from '../platform/metrics.ts';

export type { LiveSession };

/** What the live area asks of the areas around it; server.ts wires it. */
export type LiveWiring = {
  /** Followers hear that a stream started. */
  notifier: Notifier;
  /** The shop's gift of gold: viewers' gifts to the broadcaster go through it. */
  gift(fromUserId: string, g: { toUserId: string; amount: number; idempotencyKey: string }): Promise<{ gold: number }>;
  /**
   * The stored-room core that runs every stream's chat, with its socket operations. It is made
   * with this area's chat policy, so it exists only once this area does: asked for at run time.
   */
  chat(): { rooms: RoomCore; ops: RoomOps; moderation: RoomModeration };
};

/** What live streams tell the areas that follow them. */
export type LiveEvents = {
  /** Someone stopped watching, or a broadcast ended: how long they were in it. */
  sessionEnded: LiveSession;
  /** A viewer's watch of a broadcaster's stream ended (after its sessionEnded). */
  watchEnded: { streamId: string; viewerId: string; broadcasterId: string };
};
export type LiveEventSource = { on<K extends keyof LiveEvents>(name: K, listener: (event: LiveEvents[K]) => void): void };

/** What this process's SFU holds now and what it refused since it started. */
export type LiveStats = {
  openPeers: number;
  boundPorts: number;
  portsExhausted: number;
  expiredOffers: number;
  watches: number;
  /** Streams live on this process. */
  streams: number;
};

/** "10000-10100" → [10000, 10100]. */
export function portRange(value: string | undefined): [number, number] | undefined {
  const m = value?.match(/^(\d+)-(\d+)$/);
  if (!m) return undefined;
  const range: [number, number] = [Number(m[1]), Number(m[2])];
  return range[0] < range[1] ? range : undefined;
}

/**
 * Live streams as server.ts composes them: routes, and socket events on the realtime server. A
 * stream lives in this process, with its SFU (werift) and its chat; with a cluster, events of
 * streams held by another process are relayed there.
 */
export async function createLive(deps: AppDeps, wiring: LiveWiring) {
  const publicIp = deps.cfg.RTC_PUBLIC_IP;
  const stun = await startLocalStun(publicIp);
  const meter = new SfuMeter();
  const sfuOptions = {
    portRange: portRange(deps.cfg.RTC_PORT_RANGE),
    publicIp,
    stunUrl: stun.url,
    meter,
    onPortsExhausted: () => {
      sfuPortRefused();
      deps.log.warn(
        { rtcPortRange: deps.cfg.RTC_PORT_RANGE, openPeers: meter.openPeers, boundPorts: meter.boundPorts, refused: meter.portsExhausted },
        'live: no free UDP port for a peer connection (RTC_PORT_RANGE exhausted); refused',
      );
    },
  };
  const io = () => deps.realtime.io;
  const events = typedEvents<LiveEvents>();
  const store = followStore(deps.db);
  const notifyFollowers = wentLiveNotices({
    store,
    notifier: () => wiring.notifier,
    limiter: deps.limiters.create(WENT_LIVE_LIMIT),
    log: deps.log,
  });
  // With REDIS_URL every process lists every stream; the media stays with the process named here
  // (its cluster id, so a holder that died is known by its heartbeat).
  const directory = deps.redis ? redisStreamDirectory(deps.redis, deps.cfg.REDIS_KEY_PREFIX) : memoryStreamDirectory();
  const node = deps.cluster?.instanceId ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const streams = new LiveStreams({
    forwarder: () => new StreamForwarder(sfuOptions),
    outbox: liveOutbox(io, (roomId) => wiring.chat().rooms.ended(roomId)),
    wentLive(stream) {
      void notifyFollowers(stream).catch((err: unknown) => deps.log.warn({ err }, 'went-live notices failed'));
    },
    sessionEnded(session) {
      events.emit('sessionEnded', session);
      const watch = watchOf(streams, session);
      if (watch) events.emit('watchEnded', watch);
    },
    gift: wiring.gift,
    streamEnded: (figures) => records.save(figures),
    directory,
    node,
    onError: (err) => deps.log.warn({ err }, 'live directory write failed'),
    watchLimits: { perUser: LIVE_WATCHES_PER_USER, perAddress: deps.cfg.LIVE_WATCHES_PER_ADDRESS },
  });
  const records = streamRecords(deps.db, streams, () => wiring.chat().moderation);
  const joins = deps.limiters.create({ keyPrefix: 'live-join', points: LIVE_JOINS_PER_MINUTE, durationSeconds: 60 });
  const gifts = deps.limiters.create({ keyPrefix: 'live-gift', points: LIVE_GIFTS_PER_MINUTE, durationSeconds: 60 });
  const actions = liveActions(io, streams, wiring.chat);
  // Scaled out, events of a stream held by another process go there (one stream fits on one process).
  const relay = deps.cluster ? liveRelay({ cluster: deps.cluster, directory, actions, getIo: io, log: deps.log }) : undefined;
  const chatPolicy = liveChatPolicy(streams, () => wiring.chat().rooms);
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
  attachLiveSockets(deps.realtime.io, streams, actions, relay, deps.log, { joins, gifts }, socketAddress);
  return {
    routes: liveRoutes(deps, streams, channelStore(deps.db), records),
    followRoutes: followRoutes(deps, follows(store)),
    streams,
    /** Sessions and watches that ended, for the areas that count or remember them. */
    events: { on: events.on } satisfies LiveEventSource,
    /** Whether a reporter meets someone in a stream of this process now. */
    metNow: liveEncounters(streams),
    chatPolicy,
    chatElsewhere,
    /** What this process's SFU holds and refused, for operators (and a metric later). */
    stats: (): LiveStats => ({
      openPeers: meter.openPeers,
      boundPorts: meter.boundPorts,
      portsExhausted: meter.portsExhausted,
      expiredOffers: streams.expiredOffers,
      watches: streams.watchCount,
      streams: streams.liveCount,
    }),
    /** The process drains: its streams end now, their viewers told (streams.endAll). */
    drain: () => streams.endAll(),
    async close() {
      relay?.close();
      await streams.close();
      await stun.close();
    },
  };
}
