import Router from '@koa/router';
import {
  ACCOUNT_ERR,
  changeUsernameSchema,
  resetConfirmSchema,
  resetRequestSchema,
  RESET_REQUESTED,
  setEmailSchema,
  signInIdSchema,
  verifyEmailSchema,
} from '@parley/contract/accounts';
import type { OnSignedIn } from './service.ts';
import type { AccessTokenAnswer } from '@parley/contract/auth';
import { tokenUserOf, type Account } from '../db/accounts.ts';
import type { AppDeps, AuthState, Notifier } from '../deps.ts';
import { HttpError, parse } from '../platform/errors.ts';
import type { Mailer } from '../platform/mailer.ts';
import { localeFromHeader, words } from '../platform/i18n/i18n.ts';
import type { UiLocale } from '@parley/contract/locales';
import { proofOfWork } from './proofOfWork.ts';
import { deleteEndedSignIns, endSignInsOf, listSignIns, recordSignIn } from './devices/signIns.ts';
import { deleteSpentAccountTokens } from './email/accountTokens.ts';
import { deleteExpiredRefreshTokens } from './refreshTokens.ts';
import { retentionJobs } from '../platform/retention.ts';
import { deviceName } from './devices/userAgent.ts';
import { accountEmail } from './email/service.ts';
import { usernameChanges } from './usernameChange.ts';

const NEW_SIGN_IN = /*i18n*/ { id: 'notice.signIn', message: 'New sign-in from {device}. Not you? Sign it out in Settings.' };
const GOOGLE_LINKED = /*i18n*/ {
  id: 'notice.googleLinked',
  message: 'Google sign-in ({email}) was added to your account. Not you? Unlink it in Settings and change your password.',
};

/** What a sign-in was: the account, its refresh token family, the browser and address, and whether that browser is new to the account. */
export type SignInEvent = Parameters<OnSignedIn>[0];

/** What the sign-in and sign-up routes tell the account's email and devices (auth/routes.ts calls these). */
export type AccountHooks = {
  emailConfigured: boolean;
  signedIn(event: SignInEvent): Promise<void>;
  /** A Google account was linked to this account: its owner hears of it, as of a new sign-in. */
  googleLinked(account: Account): Promise<void>;
  /** A sign-up that gave an address: its verification link goes out. */
  signedUpWithEmail(account: Account, email: string, asked: UiLocale | null): Promise<void>;
};

export type AccountNeeds = {
  notifier: Notifier;
  mailer: Mailer;
};

/**
 * The account's own security: email (verify, change, remove), password reset by link, the list of
 * signed-in devices with sign-out, and the username change. Routes under /api/account (signed in)
 * and /api/auth (the links, for anyone holding one).
 */
export function createAccounts(deps: AppDeps, needs: AccountNeeds) {
  const proof = proofOfWork(deps);
  const email = accountEmail(deps, needs.mailer, proof);
  const names = usernameChanges(deps.db);
  const me = (ctx: { state: unknown }) => ctx.state as AuthState;
  const onError = (err: unknown) => deps.log.error({ err }, 'a sign-in alert failed');

  const hooks: AccountHooks = {
    emailConfigured: email.configured,
    async signedIn(event) {
      await recordSignIn(deps.db, {
        familyId: event.familyId,
        userId: event.account.id,
        deviceId: event.deviceId,
        userAgent: event.userAgent,
        address: event.address,
      });
      if (!event.newDevice) return;
      const device = deviceName(event.userAgent);
      needs.notifier
        .notify(event.account.id, {
          kind: 'signIn',
          words: words(NEW_SIGN_IN, { device }),
          link: '/settingboard',
        })
        .catch(onError);
      email.alertNewSignIn(event.account, device);
    },
    async googleLinked(account) {
      needs.notifier
        .notify(account.id, {
          kind: 'signIn',
          words: words(GOOGLE_LINKED, { email: account.googleEmail ?? 'Google' }),
          link: '/settingboard',
        })
        .catch(onError);
    },
    async signedUpWithEmail(account, address, asked) {
      if (email.configured) await email.setEmail(account.id, address, asked).catch(onError);
    },
  };

  const router = new Router();

  router.get('/account/email', deps.requireUser, async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await email.status(me(ctx).user.userId);
  });
  router.put('/account/email', deps.requireUser, async (ctx) => {
    ctx.body = await email.setEmail(
      me(ctx).user.userId,
      parse(setEmailSchema, ctx.request.body).email,
      localeFromHeader(ctx.get('Accept-Language')),
    );
  });
  router.delete('/account/email', deps.requireUser, async (ctx) => {
    ctx.body = await email.removeEmail(me(ctx).user.userId, localeFromHeader(ctx.get('Accept-Language')));
  });
  // The link may be opened on another device than the one signed in: the token is the proof.
  router.post('/auth/email/verify', async (ctx) => {
    await email.verify(parse(verifyEmailSchema, ctx.request.body).token, ctx.ip);
    ctx.status = 204;
  });

  router.post('/auth/password-reset', async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    if (!email.configured) throw new HttpError(503, ACCOUNT_ERR.emailNotConfigured, 'email_not_configured');
    const { login, altcha } = parse(resetRequestSchema, ctx.request.body);
    const rest = await email.requestReset(login, altcha, ctx.ip, localeFromHeader(ctx.get('Accept-Language')));
    // Started once the answer is written, so whether an account exists never delays it.
    ctx.res.once('finish', () => setImmediate(rest));
    ctx.status = 202;
    ctx.body = { message: RESET_REQUESTED };
  });
  router.post('/auth/password-reset/confirm', async (ctx) => {
    await email.confirmReset(parse(resetConfirmSchema, ctx.request.body), ctx.ip);
    ctx.status = 204;
  });

  router.get('/account/sign-ins', deps.requireUser, async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    const { user, sid } = me(ctx);
    ctx.body = await listSignIns(deps.db, user.userId, sid);
  });
  router.delete('/account/sign-ins/:id', deps.requireUser, async (ctx) => {
    const { user } = me(ctx);
    const id = parse(signInIdSchema, ctx.params.id);
    const ended = await endSignInsOf(deps, user.userId, { only: id }, 'signed_out_elsewhere');
    if (ended.length === 0) throw new HttpError(404, ACCOUNT_ERR.signInNotFound, 'not_found');
    ctx.status = 204;
  });
  router.post('/account/sign-ins/sign-out-others', deps.requireUser, async (ctx) => {
    const { user, sid } = me(ctx);
    await endSignInsOf(deps, user.userId, { keep: sid }, 'signed_out_elsewhere');
    ctx.status = 204;
  });

  router.get('/account/username', deps.requireUser, async (ctx) => {
    ctx.body = await names.status(me(ctx).user.userId);
  });
  // Answers a fresh access token: the name is part of it.
  router.post('/account/username', deps.requireUser, async (ctx) => {
    const { user, sid } = me(ctx);
    const account = await names.change(user.userId, parse(changeUsernameSchema, ctx.request.body).username);
    const body: AccessTokenAnswer = { accessToken: await deps.tokens.sign(tokenUserOf(account), sid) };
    ctx.body = body;
  });

  // In this order: a sign-in ends when the last of its refresh tokens has expired and gone.
  const retention = retentionJobs(
    [
      { name: 'expired_refresh_tokens', run: () => deleteExpiredRefreshTokens(deps.db) },
      { name: 'ended_sign_ins', run: () => deleteEndedSignIns(deps.db) },
      { name: 'account_links', run: () => deleteSpentAccountTokens(deps.db) },
    ],
    deps.log,
  );

  return {
    routes: router,
    hooks,
    close: async () => {
      await retention.close();
      needs.mailer.close();
    },
  };
}
