import Router from '@koa/router';
import { z } from 'zod';
import {
  goLiveSchema,
  LIVE_FOLLOWS_PER_MINUTE,
  liveFollowParamsSchema,
  liveListQuerySchema,
  liveRoomIdSchema,
  liveThumbnailSchema,
} from '@parley/contract/live';
import type { AppDeps, AuthState } from '../deps.ts';
import { HttpError, parse } from '../platform/errors.ts';
import { consume } from '../platform/rateLimit.ts';
import type { LiveStreams } from './streams.ts';
import type { follows } from './follows.ts';
import type { ChannelStore } from './channels.ts';
import type { StreamRecords } from './record.ts';

/** Streams a user may start a minute: each one opens media resources on the server. */
const GO_LIVE_PER_MINUTE = 5;

/** Thin HTTP layer of live streams: parse with the contract, ask the streams, answer. */
export function liveRoutes(deps: AppDeps, streams: LiveStreams, channels: ChannelStore, records: StreamRecords): Router {
  const starts = deps.limiters.create({ keyPrefix: 'live-start', points: GO_LIVE_PER_MINUTE, durationSeconds: 60 });
  const router = new Router({ prefix: '/live' });
  const paramsSchema = z.object({ roomId: liveRoomIdSchema });
  const roomOf = (params: unknown) => parse(paramsSchema, params).roomId;

  router.get('/', deps.requireUser, async (ctx) => {
    const query = parse(liveListQuerySchema, ctx.query);
    ctx.body = { streams: await streams.listAll(query) };
  });

  router.post('/', deps.requireUser, async (ctx) => {
    const { user } = ctx.state as AuthState;
    const body = parse(goLiveSchema, ctx.request.body);
    const wait = await consume(starts, user.userId);
    if (wait > 0)
      throw new HttpError(429, 'You started too many streams in a row. Wait a minute and try again.', 'rate_limited', {
        'Retry-After': String(wait),
      });
    ctx.status = 201;
    // The broadcaster's moderators, bans and mutes carry over from their streams before.
    const channel = await channels.load(user.userId);
    ctx.body = streams.goLive({ userId: user.userId, username: user.username, avatar: user.avatar }, body, channel);
  });

  router.get('/:roomId', deps.requireUser, async (ctx) => {
    ctx.body = await streams.find(roomOf(ctx.params));
  });

  // The broadcaster's (and admins') view of a stream: its figures once ended, and its record.
  router.get('/:roomId/summary', deps.requireUser, async (ctx) => {
    const { user } = ctx.state as AuthState;
    ctx.body = await records.summary(user.userId, roomOf(ctx.params));
  });

  router.get('/:roomId/record', deps.requireUser, async (ctx) => {
    const { user } = ctx.state as AuthState;
    ctx.body = await records.record(user.userId, roomOf(ctx.params));
  });

  // Who is muted or banned in the stream's channel, for its broadcaster and moderators to lift.
  router.get('/:roomId/restrictions', deps.requireUser, async (ctx) => {
    const { user } = ctx.state as AuthState;
    ctx.body = await records.restrictions(user.userId, roomOf(ctx.params));
  });

  router.post('/:roomId/end', deps.requireUser, async (ctx) => {
    const { user } = ctx.state as AuthState;
    ctx.body = await streams.end(user.userId, roomOf(ctx.params));
  });

  router.put('/:roomId/thumbnail', deps.requireUser, async (ctx) => {
    const { user } = ctx.state as AuthState;
    const { image } = parse(liveThumbnailSchema, ctx.request.body);
    streams.setThumbnail(user.userId, roomOf(ctx.params), Buffer.from(image.slice(image.indexOf(',') + 1), 'base64'));
    ctx.status = 204;
  });

  router.get('/:roomId/thumbnail', deps.requireUser, async (ctx) => {
    const jpeg = await streams.findThumbnail(roomOf(ctx.params));
    if (!jpeg) throw new HttpError(404, 'This stream has no picture yet.', 'not_found');
    ctx.set('Cache-Control', 'private, max-age=20');
    ctx.type = 'image/jpeg';
    ctx.body = jpeg;
  });

  return router;
}

/** Following a broadcaster: the state, follow, unfollow. Registered before `/live/:roomId`. */
export function followRoutes(deps: AppDeps, service: ReturnType<typeof follows>): Router {
  const toggles = deps.limiters.create({ keyPrefix: 'live-follow', points: LIVE_FOLLOWS_PER_MINUTE, durationSeconds: 60 });
  const router = new Router({ prefix: '/live/follows' });
  const allow = async (userId: string) => {
    const wait = await consume(toggles, userId);
    if (wait > 0)
      throw new HttpError(429, 'Too many follows at once. Wait a minute and try again.', 'rate_limited', { 'Retry-After': String(wait) });
  };
  router.get('/:userId', deps.requireUser, async (ctx) => {
    const { user } = ctx.state as AuthState;
    ctx.body = await service.state(user.userId, parse(liveFollowParamsSchema, ctx.params).userId);
  });
  router.put('/:userId', deps.requireUser, async (ctx) => {
    const { user } = ctx.state as AuthState;
    const { userId } = parse(liveFollowParamsSchema, ctx.params);
    await allow(user.userId);
    ctx.body = await service.follow(user.userId, userId);
  });
  router.delete('/:userId', deps.requireUser, async (ctx) => {
    const { user } = ctx.state as AuthState;
    const { userId } = parse(liveFollowParamsSchema, ctx.params);
    await allow(user.userId);
    ctx.body = await service.unfollow(user.userId, userId);
  });
  return router;
}
