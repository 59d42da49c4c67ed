import Router from '@koa/router';
import { friendRequestAnswerSchema, friendRequestSchema, rateSchema, requestIdSchema, usernameParamSchema } from '@parley/contract/people';
import type { AppDeps, AuthState } from '../deps.ts';
import { HttpError, parse } from '../platform/errors.ts';
import { consume } from '../platform/rateLimit.ts';
import type { EncounterBook } from './encounters.ts';
import type { Friends } from './friends.ts';

/** /api/friends (friends, requests, recent partners) and /api/ratings. */
export function friendRoutes(deps: AppDeps, friends: Friends, encounters: EncounterBook): Router {
  const router = new Router();
  const requests = deps.limiters.create({ keyPrefix: 'friend-request', points: 30, durationSeconds: 3600 });
  const me = (ctx: { state: unknown }) => (ctx.state as AuthState).user.userId;

  router.get('/friends', deps.requireUser, async (ctx) => {
    ctx.body = await friends.list(me(ctx));
  });
  router.get('/friends/requests', deps.requireUser, async (ctx) => {
    ctx.body = await friends.requests(me(ctx));
  });
  router.get('/friends/recent', deps.requireUser, async (ctx) => {
    ctx.body = await encounters.recent(me(ctx));
  });
  router.post('/friends/requests', deps.requireUser, async (ctx) => {
    const { username } = parse(friendRequestSchema, ctx.request.body);
    const wait = await consume(requests, me(ctx));
    if (wait) throw new HttpError(429, 'Too many friend requests. Try again later.', 'rate_limited', { 'Retry-After': String(wait) });
    const answer = await friends.request(me(ctx), username);
    ctx.status = answer.status === 'sent' ? 201 : 200;
    ctx.body = answer;
  });
  router.post('/friends/requests/:requestId/answer', deps.requireUser, async (ctx) => {
    const id = parse(requestIdSchema, ctx.params.requestId);
    await friends.answer(me(ctx), id, parse(friendRequestAnswerSchema, ctx.request.body).accept);
    ctx.status = 204;
  });
  router.delete('/friends/requests/:requestId', deps.requireUser, async (ctx) => {
    await friends.cancel(me(ctx), parse(requestIdSchema, ctx.params.requestId));
    ctx.status = 204;
  });
  router.delete('/friends/:username', deps.requireUser, async (ctx) => {
    await friends.unfriend(me(ctx), parse(usernameParamSchema, ctx.params.username));
    ctx.status = 204;
  });
  router.post('/ratings', deps.requireUser, async (ctx) => {
    await encounters.rate(me(ctx), parse(rateSchema, ctx.request.body));
    ctx.status = 201;
    ctx.body = { ok: true };
  });
  return router;
}
