import { randomUUID } from 'node:crypto';
import type { Context, Next } from 'koa';
import { NUL_REFUSED } from '@parley/contract/text';
import type { Logger } from './logger.ts';
import { badRequest } from './errors.ts';
import { forwardedClient } from './address.ts';
import { httpObserved } from './metrics.ts';

/** A client's own request id is logged beside ours only when it looks like one; anything else could forge log lines. */
const REQUEST_ID = /^[A-Za-z0-9._:-]{8,64}$/;

/**
 * What the access log says of a request's path: the route it matched (`/api/users/:username`),
 * never the values in it, nor the query string (OAuth codes and states, tokens, usernames). A path
 * no route matched keeps its first segment only.
 */
export function loggedPath(ctx: Pick<Context, 'path'> & { _matchedRoute?: string | RegExp | undefined }): string {
  if (typeof ctx._matchedRoute === 'string') return ctx._matchedRoute;
  const [, first = '', ...rest] = ctx.path.split('/');
  return `/${first.slice(0, 40)}${rest.length ? '/…' : ''}`;
}

/**
 * One JSON log line per request with an id of ours (answered as X-Request-Id) and its duration.
 * A client's X-Request-Id is logged as `clientReqId` when it looks like an id.
 */
export function requestLog(log: Logger) {
  return async (ctx: Context, next: Next) => {
    const started = process.hrtime.bigint();
    const given = ctx.get('x-request-id');
    const clientReqId = REQUEST_ID.test(given) ? given : undefined;
    const reqId = randomUUID();
    ctx.state.reqId = reqId;
    ctx.set('X-Request-Id', reqId);
    try {
      await next();
    } finally {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      httpObserved(ctx.method, (ctx as { _matchedRoute?: string })._matchedRoute, ctx.path, ctx.status, ms);
      log.info(
        {
          reqId,
          ...(clientReqId && { clientReqId }),
          method: ctx.method,
          path: loggedPath(ctx),
          status: ctx.status,
          ms: Math.round(ms * 10) / 10,
        },
        'request',
      );
    }
  };
}

/**
 * Sets `ctx.ip` to the client's address: with `hops` trusted proxies in front (TRUST_PROXY), the
 * X-Forwarded-For entry that many from the right (address.ts), else the connection's address.
 */
export function clientAddress(hops: number) {
  return async (ctx: Context, next: Next) => {
    ctx.request.ip = forwardedClient(ctx.req.socket.remoteAddress, ctx.get('x-forwarded-for'), hops);
    await next();
  };
}

/** Whether a parsed JSON value holds a NUL character in any string or key. */
function holdsNul(v: unknown, depth = 0): boolean {
  if (typeof v === 'string') return v.includes('\u0000');
  if (v === null || typeof v !== 'object' || depth > 32) return false;
  if (Array.isArray(v)) return v.some((x) => holdsNul(x, depth + 1));
  return Object.entries(v).some(([k, x]) => k.includes('\u0000') || holdsNul(x, depth + 1));
}

/**
 * Refuses a JSON body with a NUL anywhere (400), whatever route it is for: PostgreSQL cannot store
 * one, and a query failing on it must not be how a route finds out. The contract's string schemas
 * refuse it too; this covers what no schema has read yet.
 */
export function refuseNul() {
  return async (ctx: Context, next: Next) => {
    if (holdsNul(ctx.request.body) || ctx.querystring.includes('%00')) throw badRequest(NUL_REFUSED, 'nul_refused');
    await next();
  };
}
