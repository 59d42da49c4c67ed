import Router from '@koa/router';
import { eq } from 'drizzle-orm';
import { hideTopicSchema, type PopularTopicsAnswer } from '@parley/contract/matchmaking';
import type { AppDeps, AuthState } from '../deps.ts';
import { users } from '../db/schema.ts';
import { HttpError, parse } from '../platform/errors.ts';
import type { TopicStats } from './topics.ts';

export const MODERATORS_ONLY = 'Only moderators can do this.';

export function chatRoutes(deps: AppDeps, topics: TopicStats): Router {
  const router = new Router({ prefix: '/chat' });
  router.get('/topics/popular', deps.requireUser, async (ctx) => {
    const body: PopularTopicsAnswer = { topics: await topics.popular() };
    ctx.body = body;
  });
  // The role is read from the database, not the token: a withdrawn role counts at once.
  router.post('/topics/hidden', deps.requireUser, async (ctx) => {
    const { user } = ctx.state as AuthState;
    const body = parse(hideTopicSchema, ctx.request.body);
    const [row] = await deps.db.select({ role: users.role }).from(users).where(eq(users.id, user.userId));
    if (row?.role !== 'moderator' && row?.role !== 'admin') throw new HttpError(403, MODERATORS_ONLY, 'forbidden');
    await topics.setHidden(body.topic, body.hidden, user.userId);
    ctx.status = 204;
  });
  return router;
}
