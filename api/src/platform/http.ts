import { randomUUID } from 'node:crypto';
import type { Context, Next } from 'koa';
import { NUL_REFUSED } from '@parley/contract/text';
import type { Logger } from './logger.ts';
import { badRequest } from './errors.ts';

/** A client's request id is kept only when it looks like one; anything else could forge log lines. */
const REQUEST_ID = /^[A-Za-z0-9._:-]{8,64}$/;

/** One JSON log line per request with its id and duration. */
export function requestLog(log: Logger) {
  return async (ctx: Context, next: Next) => {
    const started = process.hrtime.bigint();
    const given = ctx.get('x-request-id');
    const reqId = REQUEST_ID.test(given) ? given : randomUUID();
    ctx.state.reqId = reqId;
    ctx.set('X-Request-Id', reqId);
    try {
      await next();
    } finally {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      log.info({ reqId, method: ctx.method, url: ctx.originalUrl, status: ctx.status, ms: Math.round(ms * 10) / 10 }, 'request');
    }
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
