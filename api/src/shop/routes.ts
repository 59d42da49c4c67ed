import Router from '@koa/router';
import { itemQuerySchema, purchaseRequestSchema, SHOP_ERR } from '@parley/contract/shop';
import type { AppDeps, AuthState } from '../deps.ts';
import { parse } from '../platform/errors.ts';
import { takeOrRefuse } from '../platform/rateLimit.ts';
import type { ShopService } from './service.ts';

/** Purchases one user may attempt a minute: a person taps far fewer, a script is stopped. */
export const PURCHASES_PER_MINUTE = 30;

export function shopRoutes(deps: AppDeps, shop: ShopService): Router {
  const perUser = deps.limiters.create({ keyPrefix: 'shop-purchases', points: PURCHASES_PER_MINUTE, durationSeconds: 60 });
  const router = new Router({ prefix: '/shop' });

  router.get('/items', deps.requireUser, async (ctx) => {
    const { user } = ctx.state as AuthState;
    const query = parse(itemQuerySchema, ctx.query);
    ctx.body = await shop.items(user.userId, query);
  });

  router.get('/emoji', deps.requireUser, async (ctx) => {
    const { user } = ctx.state as AuthState;
    ctx.body = await shop.ownedEmoji(user.userId);
  });

  router.post('/purchases', deps.requireUser, async (ctx) => {
    const { user } = ctx.state as AuthState;
    const body = parse(purchaseRequestSchema, ctx.request.body);
    await takeOrRefuse(perUser, user.userId, SHOP_ERR.rateLimited);
    ctx.body = await shop.buy(user.userId, body);
  });

  return router;
}
