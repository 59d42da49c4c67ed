import Router from '@koa/router';
import { sql } from 'drizzle-orm';
import type { HealthAnswer } from '@parley/contract/auth';
import type { AppDeps } from '../deps.ts';

/**
 * GET /api/health: the proxy's and Kubernetes' readiness. A replica that drains (SIGTERM) answers
 * 503 `draining` at once, before its database is asked: it takes no new connections.
 */
export function healthRoutes({ db, dbKind, version }: AppDeps, state: { draining(): boolean } = { draining: () => false }): Router {
  const router = new Router();
  router.get('/health', async (ctx) => {
    if (state.draining()) {
      const body: HealthAnswer = { status: 'draining', db: dbKind, version };
      ctx.status = 503;
      ctx.set('Retry-After', '1');
      ctx.body = body;
      return;
    }
    await db.execute(sql`select 1`);
    const body: HealthAnswer = { status: 'ok', db: dbKind, version };
    ctx.body = body;
  });
  return router;
}
