import Router from '@koa/router';
import { supportRequestSchema } from '@parley/contract/auth';
import type { AppDeps } from '../deps.ts';
import { HttpError, parse } from '../platform/errors.ts';
import { consume } from '../platform/rateLimit.ts';
import { supportDesk } from './service.ts';

/** Requests one address may file per hour: enough for a real problem, too few for spam. */
export const SUPPORT_REQUESTS_PER_HOUR = 5;
export const SUPPORT_RATE_LIMITED = 'You have sent several support requests in a short time. Please wait a while before sending another.';

export function supportRoutes({ db, limiters, optionalUser }: AppDeps): Router {
  const desk = supportDesk(db);
  const perAddress = limiters.create({
    keyPrefix: 'support',
    points: SUPPORT_REQUESTS_PER_HOUR,
    durationSeconds: 60 * 60,
    byAddress: true,
  });
  const router = new Router();

  router.post('/support', async (ctx) => {
    const request = parse(supportRequestSchema, ctx.request.body);
    const wait = await consume(perAddress, ctx.ip);
    if (wait > 0) throw new HttpError(429, SUPPORT_RATE_LIMITED, 'rate_limited', { 'Retry-After': String(wait) });
    // Signing in is optional; a valid token links the request to the account.
    const user = await optionalUser(ctx.get('authorization'));
    const id = await desk.file(request, user?.userId ?? null);
    ctx.status = 201;
    ctx.body = { id };
  });
  return router;
}
