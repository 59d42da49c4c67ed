import type { Context, Next } from 'koa';
import { ERR } from '@parley/contract/errors';
import type { Logger } from './logger.ts';
import { errorIn } from './i18n/errors.ts';
import { localeFromHeader } from './i18n/i18n.ts';
import type { ZodError } from 'zod';
import { type ZodType, type z } from 'zod';

/** An error a client may see: its status, message and a stable machine-readable code. */
export class HttpError extends Error {
  /** Per-field messages of a failed validation, for forms. */
  fields?: Record<string, string>;
  constructor(
    readonly status: number,
    message: string,
    readonly code: string = codeFor(status),
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

function codeFor(status: number): string {
  return (
    {
      400: 'bad_request',
      401: 'unauthorized',
      403: 'forbidden',
      404: 'not_found',
      409: 'conflict',
      413: 'payload_too_large',
      415: 'unsupported_media_type',
      429: 'rate_limited',
      503: 'unavailable',
    }[status] ?? 'error'
  );
}

/** What kind of failure a domain error is; the web layer alone turns it into a status. */
export type Failure = 'invalid' | 'unauthenticated' | 'forbidden' | 'not_found' | 'conflict' | 'too_many' | 'unavailable';
const STATUS_OF: Record<Failure, number> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_many: 429,
  unavailable: 503,
};

/**
 * An error a service throws about its own rules, free of HTTP: a message a person can read, a
 * stable code, and the kind of failure; `retryAfterS` when waiting helps.
 */
export class DomainError extends Error {
  constructor(
    readonly failure: Failure,
    message: string,
    readonly code: string,
    readonly retryAfterS?: number,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, code = 'bad_request') => new HttpError(400, message, code);
export const unauthorized = () => new HttpError(401, ERR.unauthorized, 'unauthorized');

/** Parses input with a contract schema; the first issue becomes a 400 a person can read. */
export function parse<S extends ZodType>(schema: S, input: unknown): z.infer<S> {
  const r = schema.safeParse(input ?? {});
  if (r.success) return r.data;
  throw validationError(r.error);
}

export function validationError(error: ZodError): HttpError {
  const issue = error.issues[0];
  const field = issue?.path.join('.');
  const message = issue ? (issue.message.startsWith('Invalid') && field ? `${field}: ${issue.message}` : issue.message) : 'Invalid request';
  const err = new HttpError(400, message, 'validation_failed');
  // The first problem of each field, as the message above reports the first problem overall.
  err.fields = {};
  for (const i of error.issues) err.fields[i.path.join('.')] ??= i.message;
  return err;
}

/** The one place errors become responses: JSON `{ message, code }`, never a stack trace. */
export function errorHandler(log: Logger) {
  return async (ctx: Context, next: Next) => {
    try {
      await next();
    } catch (raw) {
      const err = raw as Error & { status?: number; expose?: boolean; type?: string; fields?: unknown };
      let status = 500;
      let body: Record<string, unknown> = { message: ERR.internal, code: 'internal' };
      if (err instanceof DomainError) {
        status = STATUS_OF[err.failure];
        body = { message: err.message, code: err.code };
        if (err.retryAfterS !== undefined) ctx.set('Retry-After', String(err.retryAfterS));
      } else if (err instanceof HttpError) {
        status = err.status;
        body = { message: err.message, code: err.code };
        if (err.fields) body.fields = err.fields;
        for (const [k, v] of Object.entries(err.headers)) ctx.set(k, v);
      } else if (err.status === 413 || err.type === 'entity.too.large') {
        status = 413;
        body = { message: ERR.payloadTooLarge, code: 'payload_too_large' };
      } else if (typeof err.status === 'number' && err.status >= 400 && err.status < 500) {
        status = err.status;
        const message =
          err.type === 'entity.parse.failed' ? 'Request body is not valid JSON' : err.expose && err.message ? err.message : 'Bad request';
        body = { message, code: codeFor(status) };
      } else {
        log.error({ err, reqId: ctx.state.reqId }, 'unhandled error');
      }
      ctx.status = status;
      const locale = localeFromHeader(ctx.get('Accept-Language'));
      if (typeof body.message === 'string') body.message = errorIn(locale, body.message);
      if (body.fields && typeof body.fields === 'object')
        body.fields = Object.fromEntries(Object.entries(body.fields).map(([k, v]) => [k, typeof v === 'string' ? errorIn(locale, v) : v]));
      ctx.body = body;
    }
  };
}
