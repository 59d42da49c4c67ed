import Router from '@koa/router';
import { sql } from 'drizzle-orm';
import type { HealthAnswer } from '@parley/contract/auth';
import type { AppDeps } from '../deps.ts';

export function healthRoutes({ db, dbKind, version }: AppDeps): Router {
  const router = new Router();
  router.get('/health', async (ctx) => {
    await db.execute(sql`select 1`);
    const body: HealthAnswer = { status: 'ok', db: dbKind, version };
    ctx.body = body;
  });
  return router;
}
