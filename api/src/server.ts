import type http from 'node:http';
import path from 'node:path';
import { readFileSync } from 'node:fs';
import type { Config } from './platform/config.ts';
import { createLogger, type Logger } from './platform/logger.ts';
import { repoRoot } from './platform/paths.ts';
import { openServices } from './platform/services.ts';
import { httpApp } from './platform/httpApp.ts';
import { webServer } from './platform/webServer.ts';
import { shutdown } from './platform/shutdown.ts';
import { createCluster } from './realtime/cluster.ts';
import { createRealtime } from './realtime/server.ts';
import { accessChecks } from './auth/access.ts';
import { verifyCredentials } from './auth/service.ts';
import { checkPassword, hashPassword } from './auth/passwords.ts';
import type { AppDeps, PlatformDeps, StoredRoomEventSource } from './deps.ts';
import { healthRoutes } from './health/routes.ts';
import { supportRoutes } from './support/routes.ts';
import { translateRoutes } from './translate/routes.ts';
import { authRoutes } from './auth/routes.ts';
import { createAccounts } from './auth/accounts.ts';
import { createMailer } from './platform/mailer.ts';
import { storedRoomEvents } from './rooms/events.ts';
import { attachBenchReference } from './realtime/benchReference.ts';
import { createRooms } from './rooms/area.ts';
import { createStoredRooms } from './rooms/storedArea.ts';
import { elsewhereOf } from './rooms/storedSocket.ts';
import { createMatchmaking } from './matchmaking/area.ts';
import { createVideoChat } from './videoChat/area.ts';
import { createSafety } from './safety/area.ts';
import { createBilling } from './billing/area.ts';
import { createLive, type LiveStats } from './live/area.ts';
import { createGroups } from './groups/area.ts';
import { directRoutes } from './direct/routes.ts';
import { createLinks } from './links/area.ts';
import { friendIdsOf } from './people/friendships.ts';
import { createPeople } from './people/area.ts';
import { createNotifications, type Notifier } from './notifications/area.ts';
import type { PushTransportOverride } from './notifications/endpoints.ts';
import { createMissions } from './missions/area.ts';
import { createShop } from './shop/area.ts';
import { createStickers } from './stickers/area.ts';
import { addMetricsSource, metricsServer } from './platform/metrics.ts';
import { portRange } from './live/area.ts';

export { repoRoot };
export { pwaDist, helmetOptions, PERMISSIONS_POLICY } from './platform/httpApp.ts';
const version = (JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version;

/** Ports in RTC_PORT_RANGE, or 0 when the SFU takes any free port. */
function portRangeSize(value: string | undefined): number {
  const r = portRange(value);
  return r ? r[1] - r[0] + 1 : 0;
}

export type RunningServer = {
  url: string;
  port: number;
  deps: AppDeps;
  http: http.Server;
  /** How any area tells a user something (in the app, and by Web Push). */
  notifier: Notifier;
  /** What stored rooms tell their followers (a direct message stored, a mention, a message answered). */
  storedRooms: StoredRoomEventSource;
  /** What this process's live SFU holds (peer connections, UDP ports) and refused, for diagnostics. */
  liveStats(): LiveStats;
  /** The metrics' own port, when METRICS_PORT is set. */
  metricsPort: number | undefined;
  /**
   * SIGTERM's first part when scaled out (then close()): this replica takes nothing new, hands on
   * what it holds and sends its pages elsewhere (see drain below).
   */
  drain(): Promise<DrainReport>;
  close(): Promise<void>;
};

/** What a drain moved: 1:1 chats handed to other replicas (or kept: none stays), streams ended, sockets told to move. */
export type DrainReport = { chats: { handed: number; kept: number }; streamsEnded: number; sockets: number };

export type ServerOptions = {
  /** Overrides for tests: a ready logger, a memory database, Google endpoints. */
  log?: Logger;
  googleEndpoints?: Config['googleEndpoints'];
  /** Tests only: a local Web Push stand-in the server may send to despite its private address. */
  pushTransport?: PushTransportOverride;
};

/**
 * Composes the whole server: the one place where every area is wired in. The HTTP and realtime
 * servers come first; each area is built once what it asks for exists, and registers its own socket
 * events and subscriptions as it is built.
 */
export async function startServer(cfg: Config, opts: ServerOptions = {}): Promise<RunningServer> {
  const log = opts.log ?? createLogger(cfg);
  if (opts.googleEndpoints) cfg = { ...cfg, googleEndpoints: opts.googleEndpoints };
  const { services, close: closeServices, dbStats } = await openServices(cfg, log);
  const { db, secrets, redis } = services;
  // Scaled out: this process among the others on the same Redis (matching, presence, rooms).
  const cluster = redis ? await createCluster(redis, cfg.REDIS_KEY_PREFIX, (err) => log.error({ err }, 'cluster step failed')) : undefined;
  const access = await accessChecks(db, secrets.jwtSecret, log);
  const platform: PlatformDeps = { cfg, log, version, ...services, cluster, ...access };
  const web = webServer(cfg, { log, secret: secrets.jwtSecret, redis });
  let draining = false;
  // Friends come first on a person's first page of the online list.
  const realtime = createRealtime(web.server, platform, (userIds) => friendIdsOf(db, userIds));
  // Benchmarks only: the plain socket.io fan-out a bench measures beside the real path.
  if (cfg.BENCH_REFERENCE) await attachBenchReference(realtime.io, log, db);
  const deps: AppDeps = { ...platform, realtime };
  // The stored rooms' events: their followers (notifications, missions) subscribe before the core exists.
  const storedRooms = storedRoomEvents();

  const shop = createShop(deps);
  const stickers = createStickers(deps);
  const notifications = createNotifications(deps, { storedRooms, pushTransport: opts.pushTransport });
  const { notifier } = notifications;
  const accounts = createAccounts(deps, { notifier, mailer: createMailer(cfg, log) });
  // Rooms before the other areas on 1:1 sockets: a drop holds the room before matchmaking and video chat hear it.
  // Matching, rooms and calls ask each other at run time (is this socket searching, this call's attempt).
  const rooms = createRooms(deps, {
    busy: (socketId) => matchmaking.isSearching(socketId),
    callAttempt: (roomId) => videoChat.callAttempt(roomId),
    chat: () => stored.chat,
  });
  // A stream's chat runs on the stored-room core, which is made with the streams' chat policy.
  const live = await createLive(deps, { notifier, gift: shop.service.gift, chat: () => stored.chat });
  const missions = createMissions(deps, {
    notifier,
    quiet: notifications.quiet,
    sources: { chats: rooms.rooms, storedRooms, live: live.events },
  });
  // A paid premium month's gold goes through the missions ledger, in the webhook's transaction.
  const billing = createBilling(deps, { gold: missions.service });
  const people = createPeople(deps, {
    notifier,
    passwords: { hash: hashPassword, check: checkPassword },
    unsubscribeDevices: notifications.unsubscribeDevices,
    thankedInPublic: billing.thankedInPublic,
    friendMade: missions.friendMade,
    // Posting's cached access of the pair's direct room is forgotten at once.
    friendshipEnded: (a, b) => stored.rooms.accessChanged({ userIds: [a, b] }),
    rooms: rooms.rooms,
    live: live.events,
  });
  // Safety reads these rooms for reports; the core asks safety for blocks as messages go out.
  const stored = createStoredRooms(deps, {
    events: storedRooms,
    verifiedEmoji: shop.verifiedEmoji,
    media: stickers.resolve,
    blocksOf: (userId) => safety.blocksOf(userId),
    policies: [live.chatPolicy, ...rooms.chat.policies],
    elsewhere: elsewhereOf(live.chatElsewhere, rooms.chat.elsewhere),
    chatsElsewhere: rooms.chat.elsewhere,
  });
  const safety = createSafety(deps, {
    notifier,
    verifyCredentials: (username, password) => verifyCredentials(db, username, password),
    chats: rooms,
    storedRooms: stored.rooms,
    live,
    people,
  });
  const matchmaking = createMatchmaking(deps, {
    rooms: rooms.rooms,
    blocksOf: safety.blocksOf,
    inReview: safety.inReview,
    restricted: safety.restricted,
    callAttempt: (roomId) => videoChat.callAttempt(roomId),
    profiles: people.profiles,
  });
  const videoChat = createVideoChat(deps, { rooms: rooms.rooms, allowRedial: matchmaking.allowControl });
  const groups = createGroups(deps, stored.rooms, stored.moderation);
  const direct = directRoutes(deps, { areFriends: people.areFriends });
  const links = createLinks(deps, () => stored.rooms);

  web.serve(
    httpApp(cfg, log, {
      // Stripe signs the exact bytes it sends: the webhook reads its body before the JSON parser.
      rawBody: [billing.webhook],
      routers: [
        ...[
          healthRoutes(deps, { draining: () => draining }),
          supportRoutes(deps),
          authRoutes(deps, accounts.hooks),
          accounts.routes,
          matchmaking.routes,
          videoChat.routes,
          notifications.routes,
        ],
        ...[...people.routes, stored.routes, ...groups.routes, direct, billing.routes, safety.routes, missions.routes],
        ...[shop.routes, shop.customEmojiRoutes, stickers.routes, live.followRoutes, live.routes, links.routes, translateRoutes(deps)],
      ],
    }).callback(),
  );
  await stored.rooms.warm();
  const port = await web.listen();
  const unwatch = addMetricsSource({
    sockets: () => realtime.io.engine.clientsCount,
    searchesWaiting: () => matchmaking.waiting(),
    sfu: () => {
      const s = live.stats();
      return {
        streams: s.streams,
        viewers: s.watches,
        openPeers: s.openPeers,
        boundPorts: s.boundPorts,
        portRange: portRangeSize(cfg.RTC_PORT_RANGE),
      };
    },
    pool: dbStats.pool,
    pglite: dbStats.memory,
    replicas:
      cluster &&
      (async () => {
        const ids = await cluster.known();
        return { known: ids.length, alive: (await cluster.alive(ids)).size };
      }),
  });
  // Prometheus scrapes a port of its own, this machine's only unless METRICS_HOST opens it.
  const metrics =
    cfg.METRICS_PORT === undefined
      ? undefined
      : await metricsServer({ port: cfg.METRICS_PORT, host: cfg.METRICS_HOST, token: cfg.METRICS_TOKEN });
  const close = shutdown(
    log,
    // The areas, last built first; then the sockets, and the PeerJS server.
    [
      [access.revocations.close, stored.close, rooms.close, matchmaking.close, live.close, shop.close, missions.close, billing.close],
      [safety.close, notifications.close, people.close, accounts.close, realtime.close, web.closePeer],
    ],
    [async () => unwatch(), web.stop, metrics?.close, cluster?.close, closeServices],
  );
  /**
   * Health answers 503 and new connections are refused (the proxy tries another replica) at once;
   * the cluster hands this replica nothing more; its live streams end (their media cannot move)
   * and their viewers are told; its 1:1 chats go to replicas that stay, with their messages; its
   * sockets are told to reconnect (to another replica: their chats are held for them); the posts
   * it took are written. close() then stops the rest.
   */
  let drained: Promise<DrainReport> | undefined;
  // A step that fails (Redis gone) is logged and the next one runs: the drain always gets to close().
  const step = async <T>(what: string, run: () => Promise<T>, otherwise: T): Promise<T> =>
    run().catch((err: unknown) => {
      log.warn({ err, step: what }, 'drain step failed');
      return otherwise;
    });
  const drain = () =>
    (drained ??= (async () => {
      draining = true;
      realtime.stopAccepting();
      await step('cluster', async () => cluster?.drain(), undefined);
      const streamsEnded = await step('streams', live.drain, 0);
      const chats = await step('chats', rooms.drain, { handed: 0, kept: 0 });
      const sockets = realtime.io.sockets.sockets.size;
      await step('sockets', realtime.moveAll, undefined);
      await step('posts', () => stored.rooms.flush(), undefined);
      return { chats, streamsEnded, sockets };
    })());
  return {
    url: `http://localhost:${port}`,
    port,
    metricsPort: metrics?.port,
    deps,
    http: web.server,
    drain,
    close,
    notifier,
    storedRooms,
    liveStats: live.stats,
  };
}
