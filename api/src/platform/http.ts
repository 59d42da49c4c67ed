import { randomUUID } from 'node:crypto';
import type { Context, Next } from 'koa';
import type { Logger } from './logger.ts';

/** One JSON log line per request with its id and duration. */
export function requestLog(log: Logger) {
  return async (ctx: Context, next: Next) => {
    const started = process.hrtime.bigint();
    const reqId = ctx.get('x-request-id').slice(0, 64) || randomUUID();
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
