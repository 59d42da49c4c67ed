import Router from '@koa/router';
import { claimQuestSchema, MISSION_ERR, missionSettingsSchema, visitRequestSchema } from '@parley/contract/missions';
import type { AppDeps, AuthState } from '../deps.ts';
import { parse } from '../platform/errors.ts';
import { takeOrRefuse } from '../platform/rateLimit.ts';
import type { MissionService } from './service.ts';

/** Mission calls one user may make a minute: far above what the pages send, far below a loop's. */
export const MISSION_CALLS_PER_MINUTE = 60;

export function missionRoutes(deps: AppDeps, missions: MissionService): Router {
  const perUser = deps.limiters.create({ keyPrefix: 'missions', points: MISSION_CALLS_PER_MINUTE, durationSeconds: 60 });
  const limit = (userId: string) => takeOrRefuse(perUser, userId, MISSION_ERR.rateLimited);
  const router = new Router({ prefix: '/missions' });

  router.get('/', deps.requireUser, async (ctx) => {
    const { user } = ctx.state as AuthState;
    ctx.body = await missions.overview(user.userId, user.premiumUser);
  });

  router.post('/visit', deps.requireUser, async (ctx) => {
    const { user } = ctx.state as AuthState;
    const { timeZone } = parse(visitRequestSchema, ctx.request.body);
    await limit(user.userId);
    ctx.body = await missions.visit(user.userId, user.premiumUser, timeZone);
  });

  router.post('/quests/claim', deps.requireUser, async (ctx) => {
    const { user } = ctx.state as AuthState;
    const body = parse(claimQuestSchema, ctx.request.body);
    await limit(user.userId);
    ctx.body = await missions.claim(user.userId, body);
  });

  router.put('/settings', deps.requireUser, async (ctx) => {
    const { user } = ctx.state as AuthState;
    const body = parse(missionSettingsSchema, ctx.request.body);
    await limit(user.userId);
    await missions.saveSettings(user.userId, body);
    ctx.status = 204;
  });

  return router;
}
