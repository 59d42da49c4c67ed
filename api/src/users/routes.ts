import Router from '@koa/router';
import { verifyInfoSchema, type AccessTokenAnswer } from '@parley/contract/auth';
import type { AppDeps, AuthState } from '../deps.ts';
import { parse } from '../platform/errors.ts';
import { usersService } from './service.ts';

/** /api/user/*: the signed-in user's own account. */
export function userRoutes(deps: AppDeps): Router {
  const users = usersService(deps);
  const router = new Router({ prefix: '/user' });

  // Age and gender after a Google sign-in (the confirm-account page), answered with a token that says so.
  router.post('/verify-info', deps.requireUser, async (ctx) => {
    const { user, sid } = ctx.state as AuthState;
    const body: AccessTokenAnswer = {
      accessToken: await users.verifyInfo(user.userId, parse(verifyInfoSchema, ctx.request.body), sid, ctx.ip),
    };
    ctx.body = body;
  });

  return router;
}
