import Router from '@koa/router';
import { deleteAccountSchema, friendRequestSchema, settingsUpdateSchema, usernameParamSchema } from '@parley/contract/people';
import type { AppDeps, AuthState } from '../deps.ts';
import { HttpError, parse } from '../platform/errors.ts';
import { consume } from '../platform/rateLimit.ts';
import type { Accounts } from './account.ts';
import type { Profiles } from './profiles.ts';

export type AccountHooks = {
  /** Every sign-in of the user ends, and their devices stop receiving pushes. */
  endAllSignIns(userId: string, reason: string): Promise<void>;
};

/** /api/settings: preferences, blocked users, sign out everywhere, the data export, account deletion. */
export function settingsRoutes(deps: AppDeps, accounts: Accounts, profiles: Profiles, hooks: AccountHooks): Router {
  const router = new Router({ prefix: '/settings' });
  const sensitive = deps.limiters.create({ keyPrefix: 'account-sensitive', points: 10, durationSeconds: 3600 });
  const me = (ctx: { state: unknown }) => (ctx.state as AuthState).user.userId;
  const limit = async (key: string) => {
    const wait = await consume(sensitive, key);
    if (wait) throw new HttpError(429, 'Too many attempts. Try again later.', 'rate_limited', { 'Retry-After': String(wait) });
  };

  router.get('/', deps.requireUser, async (ctx) => {
    ctx.body = await accounts.settings(me(ctx));
  });
  router.patch('/', deps.requireUser, async (ctx) => {
    ctx.body = await accounts.updateSettings(me(ctx), parse(settingsUpdateSchema, ctx.request.body));
  });
  router.get('/blocks', deps.requireUser, async (ctx) => {
    ctx.body = await accounts.blocked(me(ctx));
  });
  router.post('/blocks', deps.requireUser, async (ctx) => {
    await accounts.block(me(ctx), parse(friendRequestSchema, ctx.request.body).username);
    ctx.status = 204;
  });
  router.delete('/blocks/:username', deps.requireUser, async (ctx) => {
    await accounts.unblock(me(ctx), parse(usernameParamSchema, ctx.params.username));
    ctx.status = 204;
  });
  router.post('/sign-out-everywhere', deps.requireUser, async (ctx) => {
    await hooks.endAllSignIns(me(ctx), 'signed_out_everywhere');
    ctx.status = 204;
  });
  router.get('/export', deps.requireUser, async (ctx) => {
    await limit(`export:${me(ctx)}`);
    ctx.set('Content-Disposition', 'attachment; filename="parley-data.json"');
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await accounts.export(me(ctx));
  });
  router.post('/delete-account', deps.requireUser, async (ctx) => {
    const userId = me(ctx);
    await limit(`delete:${userId}`);
    const { password } = parse(deleteAccountSchema, ctx.request.body);
    const account = await profiles.own(userId);
    // An account without a password (Google only) confirms with its username instead.
    if (account.hasPassword) await profiles.checkPassword(userId, password);
    else if (password.toLowerCase() !== account.username.toLowerCase())
      throw new HttpError(403, 'Type your username to confirm.', 'wrong_password');
    await accounts.refuseIfRenewing(userId);
    await accounts.delete(userId);
    await hooks.endAllSignIns(userId, 'account_deleted');
    ctx.status = 204;
  });
  return router;
}
