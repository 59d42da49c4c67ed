import Router from '@koa/router';
import { localeFromHeader } from '../platform/i18n/i18n.ts';
import {
  challengeQuerySchema,
  fingerprintSchema,
  signupSchema,
  usernameCheckQuerySchema,
  type AccessTokenAnswer,
  type AuthProviders,
} from '@parley/contract/auth';
import { MIN_AGE } from '@parley/contract/constants';
import type { AppDeps } from '../deps.ts';
import { ERR } from '@parley/contract/errors';
import { HttpError, parse } from '../platform/errors.ts';
import { consume } from '../platform/rateLimit.ts';
import { declaresUnderage } from '../platform/ageDeclarations.ts';
import { clearRefreshCookie, deviceId, knownDeviceOf, refreshCookie, setKnownDeviceCookie, setRefreshCookie } from './cookies.ts';
import { googleSignIn } from './google.ts';
import { knownDevices } from './knownDevices.ts';
import { authService, usernameKey, type SignedIn } from './service.ts';
import type { AccountHooks } from './accounts.ts';
import { factorRoutes, secondFactorAfterGoogle } from './factors/routes.ts';
import { factorService } from './factors/service.ts';

/** Challenges an address may fetch a minute: a form re-fetches one when it expires or fails. */
const CHALLENGES_PER_ADDRESS = 60;

/** /api/auth/*: the web layer of sign-up, sign-in and sessions; the logic lives in the service. */
export function authRoutes(deps: AppDeps, accounts?: AccountHooks): Router {
  const { cfg } = deps;
  const auth = authService(deps, accounts && ((event) => accounts.signedIn(event)));
  const router = new Router({ prefix: '/auth' });
  const known = knownDevices(deps.secrets.jwtSecret);
  const factors = factorService(deps, auth);
  const google = googleSignIn(deps, auth, secondFactorAfterGoogle(deps, factors), async (account) => {
    await accounts?.googleLinked(account);
  });
  const challengesByAddress = deps.limiters.create({
    keyPrefix: 'pow-challenge-addr',
    points: CHALLENGES_PER_ADDRESS,
    durationSeconds: 60,
    byAddress: true,
  });

  const answer = (signedIn: SignedIn): AccessTokenAnswer => ({ accessToken: signedIn.accessToken });

  router.post('/signup', async (ctx) => {
    const from = { address: ctx.ip, device: deviceId(ctx, cfg), userAgent: ctx.get('user-agent') };
    // Remembered before the form's 400: whoever said 17 cannot say 18 from here until tomorrow.
    if (declaresUnderage(ctx.request.body, MIN_AGE)) {
      const fingerprint = fingerprintSchema.safeParse((ctx.request.body as { fingerprint?: unknown }).fingerprint);
      await auth.declaredUnderage(from, fingerprint.data);
    }
    const body = parse(signupSchema, ctx.request.body);
    const signedIn = await auth.signup(body, from);
    if (body.email) await accounts?.signedUpWithEmail(signedIn.account, body.email, localeFromHeader(ctx.get('Accept-Language')));
    setRefreshCookie(ctx, cfg, signedIn.refresh);
    setKnownDeviceCookie(ctx, cfg, known.issue(usernameKey(signedIn.account.username)));
    ctx.status = 201;
    ctx.body = answer(signedIn);
  });

  // Proof-of-work challenges are signed and expire, so handing them out keeps no state; limited
  // per address all the same, as each costs the server a hash and an HMAC.
  router.get('/challenge', async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    const wait = await consume(challengesByAddress, ctx.ip);
    if (wait) throw new HttpError(429, ERR.tooManyAttempts, 'rate_limited', { 'Retry-After': String(wait) });
    const { fingerprint, purpose } = parse(challengeQuerySchema, ctx.query);
    ctx.body = await auth.challenge(purpose ?? 'login', ctx.ip, fingerprint);
  });

  // Free or taken, and free names like it: for the sign-up form, before and after a taken name.
  router.get('/username-check', async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    const { username } = parse(usernameCheckQuerySchema, ctx.query);
    ctx.body = await auth.checkUsername(username, ctx.ip);
  });

  // What this server offers: the login screen says at once whether the Google button can work here,
  // the conversations whether to show Translate.
  router.get('/providers', (ctx) => {
    const body: AuthProviders = {
      google: Boolean(cfg.GOOGLE_CLIENT_ID && cfg.GOOGLE_CLIENT_SECRET),
      email: accounts?.emailConfigured ?? false,
      translate: Boolean(cfg.TRANSLATE_URL),
    };
    ctx.body = body;
  });

  router.post('/login', async (ctx) => {
    const username = (ctx.request.body as { username?: unknown } | undefined)?.username;
    const knownDevice = typeof username === 'string' ? knownDeviceOf(ctx, known, usernameKey(username)) : undefined;
    const device = deviceId(ctx, cfg);
    const signedIn = await auth.login(ctx.request.body, { address: ctx.ip, device, knownDevice, userAgent: ctx.get('user-agent') });
    // Two-factor on: no session yet, only a note for the second step.
    if ('secondFactorDue' in signedIn) {
      ctx.body = await factors.secondFactorDue(signedIn.secondFactorDue, device);
      return;
    }
    setRefreshCookie(ctx, cfg, signedIn.refresh);
    setKnownDeviceCookie(ctx, cfg, known.issue(usernameKey(signedIn.account.username)));
    ctx.body = answer(signedIn);
  });

  router.get('/refresh', async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    try {
      const signedIn = await auth.refresh(refreshCookie(ctx), ctx.ip);
      setRefreshCookie(ctx, cfg, signedIn.refresh);
      ctx.body = answer(signedIn);
    } catch (e) {
      // A refresh token that no longer works is of no use to the browser either.
      clearRefreshCookie(ctx, cfg);
      throw e;
    }
  });

  router.get('/info', async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    const body: AccessTokenAnswer = { accessToken: await auth.info(refreshCookie(ctx)) };
    ctx.body = body;
  });

  // Needs no access token: signing out must work after it expired.
  router.post('/logout', async (ctx) => {
    await auth.logout(refreshCookie(ctx));
    clearRefreshCookie(ctx, cfg);
    ctx.status = 204;
  });

  factorRoutes(router, deps, factors, known);
  router.get('/google', google.start);
  router.get('/google/callback', google.callback);
  router.post('/google/link', deps.requireUser, google.link);
  router.delete('/google/link', deps.requireUser, google.unlink);
  return router;
}
