import http from 'node:http';
import path from 'node:path';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import Router from '@koa/router';
import cors from '@koa/cors';
import { bodyParser } from '@koa/bodyparser';
import helmet from 'koa-helmet';
import nodeHelmet from 'helmet';
import { ERR } from '@parley/contract/errors';
import { JSON_BODY_LIMIT } from '@parley/contract/constants';
import { publicUrl, type Config } from './platform/config.ts';
import { createLogger, type Logger } from './platform/logger.ts';
import { errorHandler, HttpError } from './platform/errors.ts';
import { lane } from './platform/lane.ts';
import { clientAddress, refuseNul, requestLog } from './platform/http.ts';
import { servePwa } from './platform/static.ts';
import { repoRoot } from './platform/paths.ts';
import { loadSecrets } from './platform/secrets.ts';
import { rateLimiters } from './platform/rateLimit.ts';
import { closeRedis, createRedis } from './platform/redis.ts';
import { createCluster } from './realtime/cluster.ts';
import { openDatabase } from './db/client.ts';
import { accessTokens } from './auth/tokens.ts';
import { revocableTokens, revocationList } from './auth/revocations.ts';
import { bearerToken, requireUser } from './auth/requireUser.ts';
import type { AppDeps } from './deps.ts';
import { healthRoutes } from './health/routes.ts';
import { supportRoutes } from './support/routes.ts';
import { authRoutes } from './auth/routes.ts';
import { userRoutes } from './users/routes.ts';
import { createRealtime } from './realtime/server.ts';
import { attachBenchReference } from './realtime/benchReference.ts';
import { createRooms } from './rooms/area.ts';
import { createChat } from './chat/area.ts';
import { mountPeerServer, type PeerMount } from '@parley/peer-server';
import { createRtc } from './rtc/area.ts';
import { createSafety } from './safety/area.ts';
import { createBilling } from './billing/area.ts';
import { createLive, type LiveStats } from './live/area.ts';
import { verifyCredentials } from './auth/service.ts';
import { createStoredRooms } from './rooms/storedArea.ts';
import { storedRoomEncounters, storedRoomEvidence } from './rooms/evidence.ts';
import { liveEncounters, liveEvidence, watchOf } from './live/evidence.ts';
import { createGroups } from './groups/area.ts';
import { directRoutes } from './direct/routes.ts';
import { areFriends, friendIdsOf } from './people/friendships.ts';
import { createNotifications, type Notifier } from './notifications/area.ts';
import type { PushTransportOverride } from './notifications/endpoints.ts';
import { createPeople } from './people/area.ts';
import { checkPassword, hashPassword } from './auth/passwords.ts';
import { createMissions } from './missions/area.ts';
import { createShop } from './shop/area.ts';
import { readSettingsAndDevices } from './db/settings.ts';
import { inQuietHours } from './notifications/quietHours.ts';

export { repoRoot };
export const pwaDist = path.join(repoRoot, 'pwa/dist');
const version = (JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version;

export type RunningServer = {
  url: string;
  port: number;
  deps: AppDeps;
  http: http.Server;
  /** How any area tells a user something (in the app, and by Web Push). */
  notifier: Notifier;
  /** What this process's live SFU holds (peer connections, UDP ports) and refused, for diagnostics. */
  liveStats(): LiveStats;
  close(): Promise<void>;
};

export type ServerOptions = {
  /** Overrides for tests: a ready logger, a memory database, Google endpoints. */
  log?: Logger;
  googleEndpoints?: Config['googleEndpoints'];
  /** Tests only: a local Web Push stand-in the server may send to despite its private address. */
  pushTransport?: PushTransportOverride;
};

/** Composes the whole server: the one place where every area is wired in. */
export async function startServer(cfg: Config, opts: ServerOptions = {}): Promise<RunningServer> {
  const log = opts.log ?? createLogger(cfg);
  if (opts.googleEndpoints) cfg = { ...cfg, googleEndpoints: opts.googleEndpoints };
  const database = await openDatabase({
    url: cfg.DATABASE_URL,
    dataDir: cfg.DATA_DIR,
    pgliteSharedBuffers: cfg.PGLITE_SHARED_BUFFERS,
    onIdleError: (err) => log.warn({ err }, 'an idle database connection was lost'),
  });
  const secrets = await loadSecrets(cfg);
  const redis = cfg.REDIS_URL ? createRedis(cfg.REDIS_URL) : undefined;
  // Scaled out: this process among the others on the same Redis (matching, presence, rooms).
  const cluster = redis ? await createCluster(redis, cfg.REDIS_KEY_PREFIX, (err) => log.error({ err }, 'cluster step failed')) : undefined;
  const revocations = revocationList(database.db, (err) => log.warn({ err }, 'reading revocations failed'));
  await revocations.start();
  const tokens = revocableTokens(accessTokens(secrets.jwtSecret), revocations);
  const deps: AppDeps = {
    cfg,
    log,
    db: database.db,
    dbKind: database.kind,
    // The embedded database answers one query at a time; a server's pool answers several.
    background: lane(database.kind === 'pglite' ? 1 : 4),
    secrets,
    tokens,
    revocations,
    requireUser: requireUser(tokens),
    optionalUser: (authorization) => tokens.verify(bearerToken(authorization)),
    limiters: rateLimiters(redis, cfg.REDIS_KEY_PREFIX),
    redis,
    cluster,
    version,
  };

  // Behind proxies, X-Forwarded-Proto and -Host are read too (secure cookies need the first).
  const app = new Koa({ proxy: cfg.TRUST_PROXY > 0 });
  app.silent = true;
  app.use(clientAddress(cfg.TRUST_PROXY));
  app.use(requestLog(log));
  app.use(errorHandler(log));
  app.use(helmet(helmetOptions(cfg)));
  app.use(async (ctx, next) => {
    ctx.set('Permissions-Policy', PERMISSIONS_POLICY);
    await next();
  });
  const origin = new URL(publicUrl(cfg)).origin;
  app.use(cors({ origin: (ctx) => (ctx.get('origin') === origin ? origin : ''), credentials: true }));
  const notifications = createNotifications(deps, { pushTransport: opts.pushTransport });
  deps.notifier = notifications.notifier;
  // Progress sources on this server: 1:1 chats, daily visits, friends made, group replies and live streams.
  const missions = createMissions(deps, {
    liveSources: ['chatAnswered', 'chatMinute', 'dailyVisit', 'friendMade', 'groupMessageAnswered', 'liveMinutes'],
    remind: (userId) =>
      void notifications.notifier
        .notify(userId, {
          kind: 'missionReminder',
          text: 'Visit today to keep your daily streak going.',
          link: '/missions',
          coalesceKey: 'streak',
        })
        .catch((err: unknown) => log.warn({ err }, 'streak reminder failed')),
    levelUp: (userId, level) =>
      void notifications.notifier
        .notify(userId, { kind: 'levelUp', text: `You reached level ${level} and earned gold.`, link: '/missions' })
        .catch((err: unknown) => log.warn({ err }, 'level-up notification failed')),
    quiet: async (userId, at) => inQuietHours((await readSettingsAndDevices(deps.db, userId))?.settings.quietHours ?? null, at),
  });
  // A paid premium month's gold goes through the missions ledger, in the webhook's transaction.
  const billing = createBilling(deps, { gold: missions.service });
  // Stripe signs the exact bytes it sends: the webhook reads its body before the JSON parser.
  app.use(billing.webhook);
  app.use(bodyParser({ enableTypes: ['json'], jsonLimit: JSON_BODY_LIMIT, encoding: 'utf-8' }));
  app.use(refuseNul());

  const api = new Router({ prefix: '/api' });
  const safety = createSafety(deps, {
    verifyCredentials: (username, password) => verifyCredentials(deps.db, username, password),
    // Read when a report is filed, by which time stored rooms and live streams exist.
    rooms: {
      group: () => storedRoomEvidence(stored.current, 'group'),
      direct: () => storedRoomEvidence(stored.current, 'direct'),
      live: () => liveEvidence(live.streams),
    },
    metIn: (room, userId, partnerId) => people.metIn(room, userId, partnerId),
    // A report weighs only if its reporter had met the person somewhere the server knows of.
    met: {
      chat: (a, b) => people.met(a, b, 'chat'),
      group: (a, b) => metInStoredRooms.group(a, b),
      direct: (a, b) => metInStoredRooms.direct(a, b),
      live: async (a, b) => metLiveNow(a, b) || (await people.met(a, b, 'live')),
    },
    // A report ends the 1:1 chat at once; a block also closes their direct conversation.
    reported: (reporterId, reportedId) => rooms.endBetween(reporterId, reportedId),
    blocked: (blockerId, blockedId) => {
      rooms.endBetween(blockerId, blockedId);
      void stored
        .current()
        .blocked(blockerId, blockedId)
        .catch((err: unknown) => log.warn({ err }, 'closing a blocked direct conversation failed'));
    },
  });
  const metInStoredRooms = storedRoomEncounters(deps.db);
  const chat = createChat(deps, {
    blocksOf: safety.blocksOf,
    inReview: safety.inReview,
    restricted: safety.restricted,
    callAttempt: (roomId) => rtc.callAttempt(roomId),
  });
  const rtc = createRtc(deps, { allowRedial: chat.allowControl });
  const shop = createShop(deps);
  const rooms = createRooms(deps, { busy: chat.isSearching, callAttempt: rtc.callAttempt, verifiedEmoji: shop.verifiedEmoji });
  const people = createPeople(deps, {
    notifier: notifications.notifier,
    passwords: { hash: hashPassword, check: checkPassword },
    blocksChanged: safety.blocksChanged,
    blocked: safety.blockAdded,
    thankedInPublic: billing.thankedInPublic,
    unsubscribeDevices: (userId, keepSids) => notifications.push.unsubscribeAll(userId, keepSids),
    // Idempotent per pair: a friendship made again after an unfriend earns nothing more.
    friendMade: (a, b) => {
      const pair = a < b ? `${a}:${b}` : `${b}:${a}`;
      for (const id of [a, b])
        void missions.record(id, { kind: 'friendMade', key: pair }).catch((err: unknown) => log.warn({ err }, 'friend mission failed'));
    },
    // Posting to their direct room checks the friendship again (stored rooms cache who may post).
    friendshipEnded: (a, b) => stored.current().accessChanged({ userIds: [a, b] }),
  });
  const live = await createLive(deps, {
    blocksOf: safety.blocksOf,
    sessionEnded: (session) => {
      missions.liveTime(session);
      const watch = watchOf(live.streams, session);
      if (watch) people.watched(watch);
    },
    verifiedEmoji: shop.verifiedEmoji,
    gift: shop.service.gift,
  });
  const metLiveNow = liveEncounters(live.streams);
  const friends = (a: string, b: string) => areFriends(deps.db, a, b);
  const stored = createStoredRooms(deps, { verifiedEmoji: shop.verifiedEmoji, blocksOf: safety.blocksOf });
  const groups = createGroups(deps, stored.current);
  // Online status of friends in the conversation list; presence exists once realtime does.
  const direct = directRoutes(deps, { areFriends: friends, isOnline: (userId) => realtime.presence.isOnline(userId) });
  for (const area of [
    healthRoutes(deps),
    supportRoutes(deps),
    authRoutes(deps),
    userRoutes(deps),
    chat.routes,
    rtc.routes,
    notifications.routes,
    ...people.routes,
    stored.routes,
    ...groups.routes,
    direct,
    billing.routes,
    safety.routes,
    missions.routes,
    shop.routes,
    shop.customEmojiRoutes,
    live.followRoutes,
    live.routes,
  ]) {
    api.use(area.routes(), area.allowedMethods({ throw: true }));
  }
  app.use(api.routes());
  app.use(api.allowedMethods());
  // Unknown API paths answer JSON, never the app shell.
  app.use(async (ctx, next) => {
    if (ctx.path === '/api' || ctx.path.startsWith('/api/')) throw new HttpError(404, ERR.notFound, 'not_found');
    await next();
  });
  if (cfg.SERVE_PWA) app.use(servePwa(cfg.PWA_DIST ? path.resolve(cfg.PWA_DIST) : pwaDist));

  const koaHandler = app.callback();
  // /peerjs goes to the PeerJS signalling server (express), everything else to Koa.
  let peer: PeerMount | undefined;
  const server = http.createServer((req, res) => (peer?.owns(req) ? peer.handle(req, res) : void koaHandler(req, res)));
  const closers: Array<() => Promise<void>> = [];
  if (cfg.PEERJS_MOUNT) {
    // With Redis, every process serving peers shares which tickets have registered.
    peer = mountPeerServer(server, {
      secret: secrets.jwtSecret,
      log,
      redis,
      redisKeyPrefix: cfg.REDIS_KEY_PREFIX,
      allowedOrigin: origin,
      securityHeaders: securityHeaders(cfg),
    });
    closers.push(peer.close);
  }

  const realtime = createRealtime(server, deps, (userIds) => friendIdsOf(deps.db, userIds));
  closers.push(realtime.close);
  deps.realtime = realtime;
  // Rooms first: the areas that follow rooms subscribe to them, and a drop holds the room before they hear it.
  const chatRooms = rooms.attach(realtime);
  chatRooms.on('ended', safety.conversationEnded);
  chatRooms.on('ended', missions.conversationEnded);
  shop.attach(realtime);
  chat.attach(realtime, chatRooms);
  safety.attach(realtime);
  rtc.attach(realtime, chatRooms);
  notifications.attach(realtime);
  people.attach(realtime, chatRooms);
  const storedEvents = stored.attach(realtime).events;
  deps.storedRooms = storedEvents;
  // Benchmarks only: plain socket.io fan-out beside the stored path, their reference in the same run.
  if (cfg.BENCH_REFERENCE) attachBenchReference(realtime.io, log);
  storedEvents.on('answered', missions.groupMessageAnswered);
  // Direct messages and mentions reach their person in the app and by push (coalesced per conversation).
  // A notice that fails (the database away, or closing at shutdown) is logged: the message itself was stored and sent.
  storedEvents.on('directMessage', (e) =>
    notifications.notifier
      .notify(e.recipientId, {
        kind: 'directMessage',
        text: `${e.senderName}: ${e.preview}`,
        link: `/messages/${encodeURIComponent(e.senderName)}`,
        coalesceKey: `dm:${e.roomId}`,
      })
      .catch((err: unknown) => log.warn({ err }, 'direct message notification failed')),
  );
  storedEvents.on('mentioned', (e) =>
    notifications.notifier
      .notify(e.mentionedUserId, {
        kind: 'mention',
        text: `${e.senderName} mentioned you in ${e.roomName}: ${e.preview}`,
        link: `/groupchat/${e.roomId}`,
        coalesceKey: `mention:${e.roomId}`,
      })
      .catch((err: unknown) => log.warn({ err }, 'mention notification failed')),
  );
  live.attach(realtime);
  closers.push(
    people.close,
    notifications.close,
    safety.close,
    billing.close,
    missions.close,
    shop.close,
    live.close,
    chat.close,
    async () => rooms.close(),
    async () => stored.close(),
    async () => revocations.close(),
  );

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(cfg.PORT, cfg.HOST, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://localhost:${port}`;

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      for (const c of closers.reverse()) await c().catch((err: unknown) => log.warn({ err }, 'close step failed'));
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await cluster?.close();
      if (redis) await closeRedis(redis);
      await database.close();
    })());
  return { url, port, deps, http: server, close, notifier: notifications.notifier, liveStats: live.stats };
}

/**
 * Camera, microphone and screen sharing for the app's own pages only, never for a frame it
 * embeds; payment kept for Stripe's checkout; the powerful features the app does not use, off.
 */
export const PERMISSIONS_POLICY = [
  'camera=(self)',
  'microphone=(self)',
  'display-capture=(self)',
  'payment=(self)',
  'geolocation=()',
  'usb=()',
  'serial=()',
  'hid=()',
  'midi=()',
  'accelerometer=()',
  'gyroscope=()',
  'magnetometer=()',
  'idle-detection=()',
  'screen-wake-lock=()',
  'xr-spatial-tracking=()',
  'publickey-credentials-get=()',
  'browsing-topics=()',
].join(', ');

/** The API's security headers (helmet's and Permissions-Policy) for what answers outside Koa: the mounted /peerjs. */
function securityHeaders(cfg: Config) {
  const headers = nodeHelmet(helmetOptions(cfg));
  return (req: http.IncomingMessage, res: http.ServerResponse, next: (err?: unknown) => void) =>
    headers(req, res, (err?: unknown) => {
      res.setHeader('Permissions-Policy', PERMISSIONS_POLICY);
      next(err);
    });
}

/** An origin and its WebSocket form: `https://a.example` and `wss://a.example`. */
function originAndSocket(url: string): string[] {
  const u = new URL(url);
  return [u.origin, `${u.protocol === 'https:' ? 'wss:' : 'ws:'}//${u.host}`];
}

/**
 * Where the page may connect: its own origin (socket.io and PeerJS when mounted) and the PeerJS
 * server when PEERJS_URL puts it elsewhere. 'self' alone leaves out ws(s) in older browsers.
 */
const ABLY_DOMAINS = ['ably.net', 'ably-realtime.com', 'ably.io'];

function connectSources(cfg: Config): string[] {
  const sources = ["'self'", ...originAndSocket(publicUrl(cfg))];
  if (cfg.PEERJS_URL) sources.push(...originAndSocket(cfg.PEERJS_URL));
  // Group rooms' hosted fan-out: the Ably client's realtime hosts and their fallbacks.
  if (cfg.ABLY_API_KEY) sources.push(...ABLY_DOMAINS.flatMap((d) => [`https://*.${d}`, `wss://*.${d}`]));
  return [...new Set(sources)];
}

export function helmetOptions(cfg: Config) {
  const https = publicUrl(cfg).startsWith('https:');
  return {
    contentSecurityPolicy: {
      useDefaults: true,
      directives: {
        'default-src': ["'self'"],
        // The segmentation model for background blur runs as WebAssembly.
        'script-src': ["'self'", "'wasm-unsafe-eval'"],
        'style-src': ["'self'", "'unsafe-inline'"],
        'img-src': ["'self'", 'data:', 'blob:', 'https://lh3.googleusercontent.com'],
        'connect-src': connectSources(cfg),
        'media-src': ["'self'", 'blob:', 'mediastream:'],
        'worker-src': ["'self'", 'blob:'],
        'font-src': ["'self'", 'data:'],
        'frame-ancestors': ["'none'"],
        'object-src': ["'none'"],
        'upgrade-insecure-requests': https ? [] : null,
      },
    },
    crossOriginEmbedderPolicy: false,
    strictTransportSecurity: https ? undefined : false,
  } as const;
}
