import Router from '@koa/router';
import { z } from 'zod';
import {
  notificationEvents,
  notificationIdSchema,
  notificationPageQuery,
  pushSubscriptionSchema,
  pushUnsubscribeSchema,
} from '@parley/contract/notifications';
import type { AppDeps, AuthState } from '../deps.ts';
import { badRequest, HttpError, parse } from '../platform/errors.ts';
import { consume } from '../platform/rateLimit.ts';
import type { NotificationStore } from './store.ts';
import type { WebPush } from './push.ts';

const PUSH_ENDPOINT_REFUSED = 'This push endpoint is not allowed: it must be an https address of a public push service.';
const readBody = z.object({ notificationIds: z.array(notificationIdSchema).min(1).max(100) }).strict();

/** /api/notifications: the list, read marks, and this device's Web Push subscription. */
export function notificationRoutes(deps: AppDeps, store: NotificationStore, push: WebPush): Router {
  const router = new Router({ prefix: '/notifications' });
  const subscribeLimit = deps.limiters.create({ keyPrefix: 'push-subscribe', points: 20, durationSeconds: 3600 });

  router.get('/', deps.requireUser, async (ctx) => {
    const { user } = ctx.state as AuthState;
    const q = parse(notificationPageQuery, ctx.query);
    ctx.body = await store.page(user.userId, q.before === undefined ? undefined : Number(q.before), q.limit);
  });

  router.post('/read', deps.requireUser, async (ctx) => {
    const { user } = ctx.state as AuthState;
    const { notificationIds } = parse(readBody, ctx.request.body);
    const changed = await store.markRead(user.userId, notificationIds.map(Number));
    deps.realtime.toUser(user.userId, notificationEvents.read, { notificationIds: changed });
    ctx.body = { notificationIds: changed };
  });

  router.post('/read-all', deps.requireUser, async (ctx) => {
    const { user } = ctx.state as AuthState;
    const changed = await store.markRead(user.userId, 'all');
    deps.realtime.toUser(user.userId, notificationEvents.read, { notificationIds: 'all' });
    ctx.body = { notificationIds: changed };
  });

  // The VAPID public key a browser needs to subscribe (public by nature).
  router.get('/push/key', (ctx) => {
    ctx.body = { publicKey: deps.secrets.vapid.publicKey };
  });

  router.post('/push/subscriptions', deps.requireUser, async (ctx) => {
    const { user, sid } = ctx.state as AuthState;
    const wait = await consume(subscribeLimit, user.userId);
    if (wait) throw new HttpError(429, 'Too many push subscriptions. Try again later.', 'rate_limited', { 'Retry-After': String(wait) });
    const sub = parse(pushSubscriptionSchema, ctx.request.body);
    if (!push.allowed(sub.endpoint)) throw badRequest(PUSH_ENDPOINT_REFUSED, 'push_endpoint_refused');
    await push.subscribe(user.userId, sid, sub);
    ctx.status = 201;
    ctx.body = { ok: true };
  });

  // POST, as DELETE bodies are not parsed.
  router.post('/push/unsubscribe', deps.requireUser, async (ctx) => {
    const { user } = ctx.state as AuthState;
    const { endpoint } = parse(pushUnsubscribeSchema, ctx.request.body);
    // Someone else's endpoint is answered as an unknown one: no hint that it exists.
    if (!(await push.unsubscribe(user.userId, endpoint))) throw new HttpError(404, 'This device is not subscribed.', 'not_found');
    ctx.status = 204;
  });

  return router;
}
