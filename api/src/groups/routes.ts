import Router from '@koa/router';
import { z } from 'zod';
import { createGroupSchema, joinGroupSchema, listGroupsQuerySchema, moderationSchema } from '@parley/contract/groups';
import { roomIdSchema } from '@parley/contract/rooms';
import { text } from '@parley/contract/text';
import type { AppDeps, AuthState } from '../deps.ts';
import { DomainError, parse } from '../platform/errors.ts';
import type { Limiter } from '../platform/rateLimit.ts';
import type { GroupService } from './service.ts';
import type { RoomModeration } from '../rooms/moderation.ts';

const inviteQuerySchema = z.object({ invite: text().min(1).max(64).optional() });

async function within(limiter: Limiter, key: string) {
  const r = await limiter.take(key);
  if (!r.ok) throw new DomainError('too_many', 'Too many requests. Wait a moment and try again.', 'rate_limited', r.retryAfterS);
}

/** /api/groups: the room list, a room's page, creating, joining, leaving and moderating rooms. */
export function groupRoutes(deps: AppDeps, groups: GroupService, moderation: RoomModeration): Router {
  const router = new Router({ prefix: '/groups' });
  const creates = deps.limiters.create({ keyPrefix: 'group-create', points: 10, durationSeconds: 3600 });
  const joins = deps.limiters.create({ keyPrefix: 'group-join', points: 60, durationSeconds: 60 });
  router.use(deps.requireUser);
  const me = (ctx: { state: unknown }) => (ctx.state as AuthState).user;

  router.get('/', async (ctx) => {
    ctx.body = await groups.list(me(ctx).userId, parse(listGroupsQuerySchema, ctx.query));
  });
  router.post('/', async (ctx) => {
    const user = me(ctx);
    const body = parse(createGroupSchema, ctx.request.body);
    await within(creates, user.userId);
    ctx.status = 201;
    ctx.body = await groups.create(user, body);
  });
  router.get('/:roomId', async (ctx) => {
    const { invite } = parse(inviteQuerySchema, ctx.query);
    ctx.set('Cache-Control', 'private, no-store');
    ctx.body = await groups.detail(parse(roomIdSchema, ctx.params.roomId), me(ctx).userId, invite);
  });
  router.post('/:roomId/join', async (ctx) => {
    const user = me(ctx);
    const roomId = parse(roomIdSchema, ctx.params.roomId);
    const { invite } = parse(joinGroupSchema, ctx.request.body);
    await within(joins, user.userId);
    ctx.body = await groups.join(roomId, user, invite);
  });
  router.post('/:roomId/leave', async (ctx) => {
    await groups.leave(parse(roomIdSchema, ctx.params.roomId), me(ctx));
    ctx.status = 204;
  });
  router.post('/:roomId/moderation', async (ctx) => {
    const user = me(ctx);
    const roomId = parse(roomIdSchema, ctx.params.roomId);
    const action = parse(moderationSchema, ctx.request.body);
    // The same moderation as `room:moderate` (rooms/moderation.ts), for the room's settings page.
    ctx.body = { ok: true, ...(await moderation.act(roomId, user, action)) };
  });
  router.get('/:roomId/moderation', async (ctx) => {
    ctx.body = { entries: await moderation.log(parse(roomIdSchema, ctx.params.roomId), me(ctx).userId) };
  });
  return router;
}
