import type http from 'node:http';
import path from 'node:path';
import Koa, { type Middleware } from 'koa';
import Router from '@koa/router';
import cors from '@koa/cors';
import { bodyParser } from '@koa/bodyparser';
import helmet from 'koa-helmet';
import nodeHelmet from 'helmet';
import { ERR } from '@parley/contract/errors';
import { JSON_BODY_LIMIT } from '@parley/contract/constants';
import { publicUrl, type Config } from './config.ts';
import type { Logger } from './logger.ts';
import { errorHandler, HttpError } from './errors.ts';
import { clientAddress, refuseNul, requestLog } from './http.ts';
import { servePwa } from './static.ts';
import { repoRoot } from './paths.ts';
import { metricsText, tokenMatches } from './metrics.ts';

export const pwaDist = path.join(repoRoot, 'pwa/dist');

/** What the areas put in the HTTP app. */
export type HttpAppParts = {
  /** Middleware that reads the request's raw body (Stripe signs the exact bytes it sends): before the JSON parser. */
  rawBody: Middleware[];
  /** The areas' routers, mounted under /api in this order. */
  routers: Router[];
};

/**
 * The API's Koa app: client address, request log, errors and security headers first, then the
 * raw-body middleware, the JSON parser, the routers under /api, and the PWA when SERVE_PWA is on.
 */
export function httpApp(cfg: Config, log: Logger, parts: HttpAppParts): Koa {
  // Behind proxies, X-Forwarded-Proto and -Host are read too (secure cookies need the first).
  const app = new Koa({ proxy: cfg.TRUST_PROXY > 0 });
  app.silent = true;
  app.use(clientAddress(cfg.TRUST_PROXY));
  app.use(requestLog(log));
  app.use(errorHandler(log));
  app.use(helmet(helmetOptions(cfg)));
  // Without a port of their own, the metrics answer here, to the token's bearer only.
  if (cfg.METRICS_TOKEN && cfg.METRICS_PORT === undefined) app.use(metricsRoute(cfg.METRICS_TOKEN));
  app.use(async (ctx, next) => {
    ctx.set('Permissions-Policy', PERMISSIONS_POLICY);
    await next();
  });
  const origin = new URL(publicUrl(cfg)).origin;
  app.use(cors({ origin: (ctx) => (ctx.get('origin') === origin ? origin : ''), credentials: true }));
  for (const m of parts.rawBody) app.use(m);
  app.use(bodyParser({ enableTypes: ['json'], jsonLimit: JSON_BODY_LIMIT, encoding: 'utf-8' }));
  app.use(refuseNul());

  const api = new Router({ prefix: '/api' });
  for (const router of parts.routers) api.use(router.routes(), router.allowedMethods({ throw: true }));
  app.use(api.routes());
  app.use(api.allowedMethods());
  // Unknown API paths answer JSON, never the app shell.
  app.use(async (ctx, next) => {
    if (ctx.path === '/api' || ctx.path.startsWith('/api/')) throw new HttpError(404, ERR.notFound, 'not_found');
    await next();
  });
  if (cfg.SERVE_PWA) app.use(servePwa(cfg.PWA_DIST ? path.resolve(cfg.PWA_DIST) : pwaDist));
  return app;
}

/** GET /metrics with `Authorization: Bearer <METRICS_TOKEN>`; anyone else is told 401. */
function metricsRoute(token: string): Middleware {
  return async (ctx, next) => {
    if (ctx.path !== '/metrics') return next();
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') throw new HttpError(405, 'Use GET', 'method_not_allowed', { Allow: 'GET' });
    if (!tokenMatches(ctx.get('authorization'), token))
      throw new HttpError(401, 'The metrics need their bearer token', 'unauthorized', { 'WWW-Authenticate': 'Bearer' });
    const m = await metricsText();
    ctx.type = m.contentType;
    ctx.body = m.body;
  };
}

/**
 * Camera, microphone, screen sharing and passkeys for the app's own pages only, never for a frame it
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
  // Passkeys: sign-in and registration from the app's own pages.
  'publickey-credentials-get=(self)',
  'publickey-credentials-create=(self)',
  'browsing-topics=()',
].join(', ');

/** The API's security headers (helmet's and Permissions-Policy) for what answers outside Koa: the mounted /peerjs. */
export function securityHeaders(cfg: Config) {
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

const ABLY_DOMAINS = ['ably.net', 'ably-realtime.com', 'ably.io'];

/**
 * Where the page may connect: its own origin (socket.io and PeerJS when mounted) and the PeerJS
 * server when PEERJS_URL puts it elsewhere. 'self' alone leaves out ws(s) in older browsers.
 */
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
