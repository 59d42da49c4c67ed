import type Router from '@koa/router';
import type { Context } from 'koa';
import { z } from 'zod';
import {
  changePasswordSchema,
  confirmTotpSchema,
  passkeySignInSchema,
  pendingSchema,
  recoverSchema,
  registerPasskeySchema,
  renamePasskeySchema,
  secondFactorSchema,
  turnOffSchema,
  SECOND_FACTOR_TTL_S,
  type RecoveryCodes,
} from '@parley/contract/factors';
import type { AccessTokenAnswer } from '@parley/contract/auth';
import type { AppDeps, AuthState } from '../../deps.ts';
import { HttpError, parse } from '../../platform/errors.ts';
import { deviceId, secureCookies, setKnownDeviceCookie, setRefreshCookie } from '../cookies.ts';
import type { Account } from '../../db/accounts.ts';
import type { KnownDevices } from '../knownDevices.ts';
import { usernameKey, type SignedIn } from '../service.ts';
import type { FactorService } from './service.ts';

const idParam = z.uuid({ message: 'not an id' });
/** The second step's note across Google's round trip: httpOnly, for the sign-in routes only. */
const PENDING_COOKIE = 'parley_second_factor';

/** After Google, an account with two-factor on gets a note in a cookie instead of a session. */
export function secondFactorAfterGoogle(deps: AppDeps, factors: FactorService) {
  return async (ctx: Context, account: Account) => {
    const { secondFactor } = await factors.secondFactorDue(account, deviceId(ctx, deps.cfg));
    ctx.cookies.set(PENDING_COOKIE, secondFactor.pending, {
      httpOnly: true,
      sameSite: 'lax',
      secure: secureCookies(ctx, deps.cfg),
      path: '/api/auth',
      maxAge: SECOND_FACTOR_TTL_S * 1000,
      overwrite: true,
    });
  };
}

/**
 * /api/auth/… of passkeys, two-factor and recovery codes, on the account router: Settings calls
 * (signed in) and the sign-in steps (a passkey, the second factor, a recovery-code reset).
 */
export function factorRoutes(router: Router, deps: AppDeps, factors: FactorService, known: KnownDevices): void {
  const { cfg } = deps;
  const userOf = (ctx: Context) => (ctx.state as AuthState).user.userId;
  const signedIn = (ctx: Context, s: SignedIn) => {
    setRefreshCookie(ctx, cfg, s.refresh);
    setKnownDeviceCookie(ctx, cfg, known.issue(usernameKey(s.account.username)));
    const body: AccessTokenAnswer = { accessToken: s.accessToken };
    ctx.body = body;
  };
  const codesAnswer = (codes: string[]): RecoveryCodes => ({ codes });
  const noStore = (ctx: Context) => ctx.set('Cache-Control', 'no-store');

  router.get('/factors', deps.requireUser, async (ctx) => {
    noStore(ctx);
    ctx.body = await factors.overview(userOf(ctx));
  });

  router.post('/passkeys/options', deps.requireUser, async (ctx) => {
    ctx.body = await factors.passkeyOptions(userOf(ctx));
  });
  router.post('/passkeys', deps.requireUser, async (ctx) => {
    const { name, response } = parse(registerPasskeySchema, ctx.request.body);
    ctx.status = 201;
    ctx.body = await factors.registerPasskey(userOf(ctx), name, response);
  });
  router.patch('/passkeys/:id', deps.requireUser, async (ctx) => {
    const { name } = parse(renamePasskeySchema, ctx.request.body);
    const key = await factors.renamePasskey(userOf(ctx), parse(idParam, ctx.params.id), name);
    if (!key) throw new HttpError(404, 'No such passkey.', 'not_found');
    ctx.body = key;
  });
  router.delete('/passkeys/:id', deps.requireUser, async (ctx) => {
    if (!(await factors.removePasskey(userOf(ctx), parse(idParam, ctx.params.id))))
      throw new HttpError(404, 'No such passkey.', 'not_found');
    ctx.status = 204;
  });

  router.post('/totp/setup', deps.requireUser, async (ctx) => {
    noStore(ctx);
    ctx.body = await factors.totpSetup(userOf(ctx));
  });
  router.post('/totp/confirm', deps.requireUser, async (ctx) => {
    noStore(ctx);
    ctx.body = codesAnswer(await factors.totpConfirm(userOf(ctx), parse(confirmTotpSchema, ctx.request.body).code));
  });
  router.post('/two-factor/passkey', deps.requireUser, async (ctx) => {
    noStore(ctx);
    ctx.body = codesAnswer(await factors.passkeyTwoFactor(userOf(ctx)));
  });
  router.post('/two-factor/off', deps.requireUser, async (ctx) => {
    await factors.turnOff(userOf(ctx), parse(turnOffSchema, ctx.request.body));
    ctx.status = 204;
  });
  router.post('/recovery-codes', deps.requireUser, async (ctx) => {
    noStore(ctx);
    ctx.body = codesAnswer(await factors.regenerateCodes(userOf(ctx)));
  });
  // Signed in, proving it is the owner again with a passkey (before a new password).
  router.post('/passkeys/confirm-options', deps.requireUser, async (ctx) => {
    noStore(ctx);
    ctx.body = await factors.confirmOptions(userOf(ctx));
  });
  router.post('/password', deps.requireUser, async (ctx) => {
    const { user, sid } = ctx.state as AuthState;
    await factors.changePassword(user.userId, sid, parse(changePasswordSchema, ctx.request.body), ctx.ip);
    ctx.status = 204;
  });

  // Signed out: the sign-in page's passkey, the second step after a password, and a reset.
  router.post('/passkey/options', async (ctx) => {
    noStore(ctx);
    ctx.body = await factors.loginOptions(ctx.ip);
  });
  router.post('/passkey', async (ctx) => {
    const { response, fingerprint } = parse(passkeySignInSchema, ctx.request.body);
    signedIn(
      ctx,
      await factors.passkeyLogin(response, { address: ctx.ip, device: deviceId(ctx, cfg), userAgent: ctx.get('user-agent') }, fingerprint),
    );
  });
  // The sign-in page, back from Google, picks up the second step the callback left in its cookie.
  router.post('/second-factor/resume', async (ctx) => {
    noStore(ctx);
    const token = ctx.cookies.get(PENDING_COOKIE) || undefined;
    ctx.cookies.set(PENDING_COOKIE, '', {
      httpOnly: true,
      sameSite: 'lax',
      secure: secureCookies(ctx, cfg),
      path: '/api/auth',
      expires: new Date(0),
      overwrite: true,
    });
    ctx.body = await factors.resume(token, deviceId(ctx, cfg));
  });
  router.post('/second-factor/options', async (ctx) => {
    noStore(ctx);
    ctx.body = await factors.secondFactorOptions(parse(pendingSchema, ctx.request.body).pending, deviceId(ctx, cfg));
  });
  router.post('/second-factor', async (ctx) => {
    const { pending, ...factor } = parse(secondFactorSchema, ctx.request.body);
    signedIn(
      ctx,
      await factors.secondFactor(pending, factor, { address: ctx.ip, device: deviceId(ctx, cfg), userAgent: ctx.get('user-agent') }),
    );
  });
  router.post('/recover', async (ctx) => {
    await factors.recover(parse(recoverSchema, ctx.request.body), ctx.ip);
    ctx.status = 204;
  });
}
