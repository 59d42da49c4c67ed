import Router from '@koa/router';
import type { PopularTopicsAnswer } from '@parley/contract/chat';
import type { AppDeps } from '../deps.ts';
import type { TopicStats } from './topics.ts';

export function chatRoutes(deps: AppDeps, topics: TopicStats): Router {
  const router = new Router({ prefix: '/chat' });
  router.get('/topics/popular', deps.requireUser, async (ctx) => {
    const body: PopularTopicsAnswer = { topics: await topics.popular() };
    ctx.body = body;
  });
  return router;
}
