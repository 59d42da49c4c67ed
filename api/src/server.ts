import http from 'node:http';
import path from 'node:path';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import Router from '@koa/router';
import cors from '@koa/cors';
import { bodyParser } from '@koa/bodyparser';
import helmet from 'koa-helmet';
import { ERR } from '@parley/contract/errors';
import { JSON_BODY_LIMIT } from '@parley/contract/constants';
import { publicUrl, type Config } from './platform/config.ts';
import { createLogger, type Logger } from './platform/logger.ts';
import { errorHandler, HttpError } from './platform/errors.ts';
import { requestLog } from './platform/http.ts';
import { servePwa } from './platform/static.ts';
import { repoRoot } from './platform/paths.ts';
import { loadSecrets } from './platform/secrets.ts';
import { rateLimiters } from './platform/rateLimit.ts';
import { closeRedis, createRedis } from './platform/redis.ts';
import { openDatabase } from './db/client.ts';
import { accessTokens } from './auth/tokens.ts';
import { bearerToken, requireUser } from './auth/requireUser.ts';
import type { AppDeps } from './deps.ts';
import { healthRoutes } from './health/routes.ts';
import { supportRoutes } from './support/routes.ts';
import { authRoutes } from './auth/routes.ts';
import { userRoutes } from './users/routes.ts';
import { createRealtime } from './realtime/server.ts';
import { createRooms } from './rooms/area.ts';
import { createChat } from './chat/area.ts';
import { mountPeerServer, type PeerMount } from '@parley/peer-server';
import { createRtc } from './rtc/area.ts';
import { createSafety } from './safety/area.ts';

export { repoRoot };
export const pwaDist = path.join(repoRoot, 'pwa/dist');
const version = (JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version;

export type RunningServer = {
  url: string;
  port: number;
  deps: AppDeps;
  http: http.Server;
  close(): Promise<void>;
};

export type ServerOptions = {
  /** Overrides for tests: a ready logger, a memory database, Google endpoints. */
  log?: Logger;
  googleEndpoints?: Config['googleEndpoints'];
};

/** Composes the whole server: the one place where every area is wired in. */
export async function startServer(cfg: Config, opts: ServerOptions = {}): Promise<RunningServer> {
  const log = opts.log ?? createLogger(cfg);
  if (opts.googleEndpoints) cfg = { ...cfg, googleEndpoints: opts.googleEndpoints };
  const database = await openDatabase({ url: cfg.DATABASE_URL, dataDir: cfg.DATA_DIR, pgliteSharedBuffers: cfg.PGLITE_SHARED_BUFFERS });
  const secrets = await loadSecrets(cfg);
  const redis = cfg.REDIS_URL ? createRedis(cfg.REDIS_URL) : undefined;
  const tokens = accessTokens(secrets.jwtSecret);
  const deps: AppDeps = {
    cfg,
    log,
    db: database.db,
    dbKind: database.kind,
    secrets,
    tokens,
    requireUser: requireUser(tokens),
    optionalUser: (authorization) => tokens.verify(bearerToken(authorization)),
    limiters: rateLimiters(redis, cfg.REDIS_KEY_PREFIX),
    redis,
    version,
  };

  const app = new Koa({ proxy: cfg.TRUST_PROXY });
  app.silent = true;
  app.use(requestLog(log));
  app.use(errorHandler(log));
  app.use(helmet(helmetOptions(cfg)));
  const origin = new URL(publicUrl(cfg)).origin;
  app.use(cors({ origin: (ctx) => (ctx.get('origin') === origin ? origin : ''), credentials: true }));
  app.use(bodyParser({ enableTypes: ['json'], jsonLimit: JSON_BODY_LIMIT, encoding: 'utf-8' }));

  const api = new Router({ prefix: '/api' });
  const safety = createSafety(deps);
  const chat = createChat(deps, { blocksOf: safety.blocksOf, callAttempt: (roomId) => rtc.callAttempt(roomId) });
  const rtc = createRtc(deps, { allowRedial: chat.allowControl });
  const rooms = createRooms(deps, { busy: chat.isSearching, callAttempt: rtc.callAttempt });
  for (const area of [healthRoutes(deps), supportRoutes(deps), authRoutes(deps), userRoutes(deps), chat.routes, rtc.routes]) {
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
    peer = mountPeerServer(server, { secret: secrets.jwtSecret, log });
    closers.push(peer.close);
  }

  const realtime = createRealtime(server, deps);
  closers.push(realtime.close);
  deps.realtime = realtime;
  // Rooms first: the areas that follow rooms subscribe to them, and a drop holds the room before they hear it.
  const chatRooms = rooms.attach(realtime);
  chat.attach(realtime, chatRooms);
  rtc.attach(realtime, chatRooms);
  closers.push(safety.close, chat.close, async () => rooms.close());

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
      if (redis) await closeRedis(redis);
      await database.close();
    })());
  return { url, port, deps, http: server, close };
}

function helmetOptions(cfg: Config) {
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
        'connect-src': ["'self'", 'ws:', 'wss:'],
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
