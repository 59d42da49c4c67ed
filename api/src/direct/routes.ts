import Router from '@koa/router';
import { usernameSchema } from '@parley/contract/auth';
import type { AppDeps, AuthState } from '../deps.ts';
import { DomainError, parse } from '../platform/errors.ts';
import { directService, type DirectDeps } from './service.ts';

/** /api/direct: a signed-in user's conversations with friends, and opening one. */
export function directRoutes(deps: AppDeps, hooks: Pick<DirectDeps, 'areFriends'>): Router {
  // Online status of friends in the conversation list.
  const direct = directService({ db: deps.db, isOnline: (userId) => deps.realtime.presence.isOnline(userId), ...hooks });
  const opens = deps.limiters.create({ keyPrefix: 'direct-open', points: 60, durationSeconds: 60 });
  const router = new Router({ prefix: '/direct' });
  router.use(deps.requireUser);
  router.get('/', async (ctx) => {
    ctx.set('Cache-Control', 'private, no-store');
    ctx.body = await direct.conversations((ctx.state as AuthState).user.userId);
  });
  router.post('/:username', async (ctx) => {
    const { user } = ctx.state as AuthState;
    const username = parse(usernameSchema, ctx.params.username);
    const taken = await opens.take(user.userId);
    if (!taken.ok) throw new DomainError('too_many', 'Too many requests. Wait a moment and try again.', 'rate_limited', taken.retryAfterS);
    ctx.body = await direct.open(user.userId, username);
  });
  return router;
}
