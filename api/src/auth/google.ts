import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Context, Next } from 'koa';
import koaPassport from 'koa-passport';
import GoogleOAuth, { type Profile } from 'passport-google-oauth20';
import { ERR } from '@parley/contract/errors';
import type { AppDeps } from '../deps.ts';
import { DomainError, HttpError } from '../platform/errors.ts';
import type { AuthState } from '../deps.ts';
import type { Limiter } from '../platform/rateLimit.ts';
import type { GoogleLinkStart } from '@parley/contract/auth';
import { deviceId, refreshCookie, setRefreshCookie, secureCookies } from './cookies.ts';
import type { Account } from '../db/accounts.ts';
import type { AuthService, SecondFactorDue, SignedIn } from './service.ts';

export const GOOGLE_CALLBACK_PATH = '/api/auth/google/callback';
const STATE_COOKIE = 'parley_oauth_state';
const STATE_COOKIE_PATH = '/api/auth/google';
const STATE_TTL_MS = 10 * 60 * 1000;
/** Where a link started in Settings comes back to. */
const LINK_RETURN = '/settingboard';
/** Link and unlink requests an account may make an hour: each link is a round trip to Google. */
const GOOGLE_LINKS_PER_HOUR = 10;

type Middleware = (ctx: Context, next: Next) => Promise<void>;

/**
 * Google sign-in through koa-passport and passport-google-oauth20: `start` sends the browser to
 * Google's consent screen, `callback` signs the user in (creating the account on first visit),
 * sets the refresh cookie and sends them on to the app. Without client credentials both answer
 * 503 with a page that says so.
 */
export function googleSignIn(
  deps: AppDeps,
  auth: AuthService,
  /** An account with two-factor on: no session yet; the sign-in page takes the second step (auth/factors). */
  secondFactorDue: (ctx: Context, account: Account) => Promise<void>,
  /** A Google account was linked to a signed-in account: its owner is told. */
  linked: (account: Account) => Promise<void>,
): { start: Middleware; callback: Middleware; link: Middleware; unlink: Middleware } {
  const { cfg, log } = deps;
  if (!cfg.GOOGLE_CLIENT_ID || !cfg.GOOGLE_CLIENT_SECRET) {
    const notConfigured: Middleware = async (ctx) => {
      ctx.status = 503;
      ctx.type = 'html';
      ctx.set('Cache-Control', 'no-store');
      ctx.body = notConfiguredPage;
    };
    const unavailable: Middleware = () => {
      throw new HttpError(503, ERR.googleNotConfigured, 'google_not_configured');
    };
    return { start: notConfigured, callback: notConfigured, link: unavailable, unlink: unavailable };
  }

  const stateStore = new SignedStateStore(
    deps.secrets.jwtSecret,
    cfg,
    deps.limiters.create({ keyPrefix: 'oauth-state-spent', points: 1, durationSeconds: STATE_TTL_MS / 1000 }),
  );
  // One passport per server, so test servers with different providers never share strategies.
  const passport = new koaPassport.KoaPassport();
  const strategy = new GoogleStrategy(
    {
      clientID: cfg.GOOGLE_CLIENT_ID,
      clientSecret: cfg.GOOGLE_CLIENT_SECRET,
      ...(cfg.googleEndpoints ?? {}),
      scope: ['openid', 'profile', 'email'],
      pkce: true,
      // CSRF protection of the OAuth round trip without a session store (see SignedStateStore).
      store: stateStore as unknown as GoogleOAuth.StrategyOptions['store'],
      // The browser's device id decides whether a new account may be made from it.
      passReqToCallback: true,
    },
    (req, _accessToken, _refreshToken, profile, done) => {
      const { ctx } = req as unknown as PassportReq;
      const link = (ctx.state as GoogleFlowState).googleLink;
      const outcome: Promise<GoogleOutcome> = link
        ? auth.linkGoogle(link, refreshCookie(ctx), googleProfileOf(profile)).then(async (account) => {
            await linked(account);
            return { linked: account };
          })
        : auth.signInWithGoogle(googleProfileOf(profile), {
            address: ctx.ip,
            device: deviceId(ctx, cfg),
            userAgent: ctx.get('user-agent'),
          });
      outcome.then(
        (signedIn) => done(null, signedIn),
        (err: Error) => done(err),
      );
    },
  );
  passport.use('google', strategy);

  // The address Google sends the browser back to: the public one, else the one this request came to.
  const callbackUrl = (ctx: Context) =>
    cfg.PUBLIC_URL ? new URL(GOOGLE_CALLBACK_PATH, cfg.PUBLIC_URL).href : `${ctx.protocol}://${ctx.host}${GOOGLE_CALLBACK_PATH}`;

  const start: Middleware = (ctx, next) => passport.authenticate('google', { session: false, callbackURL: callbackUrl(ctx) })(ctx, next);
  const linkLimit = deps.limiters.create({ keyPrefix: 'google-link-user', points: GOOGLE_LINKS_PER_HOUR, durationSeconds: 60 * 60 });

  return {
    start,
    // Signed in (requireUser): the same round trip as sign-in, its state bound to this account and
    // sign-in. The page navigates to the answered address itself, as it cannot send its token along.
    link: async (ctx, next) => {
      ctx.set('Cache-Control', 'no-store');
      const { user, sid } = ctx.state as AuthState;
      // The link is bound to a sign-in: a token without one cannot start it.
      if (!sid) throw new HttpError(401, ERR.unauthorized, 'unauthorized');
      const allowed = await linkLimit.take(user.userId);
      if (!allowed.ok) throw new HttpError(429, ERR.tooManyAttempts, 'rate_limited', { 'Retry-After': String(allowed.retryAfterS) });
      (ctx.state as GoogleFlowState).googleLink = { userId: user.userId, familyId: sid };
      await start(ctx, next);
      const url = ctx.response.get('Location');
      if (ctx.status !== 302 || !url) throw new Error('Google sign-in did not answer with its address');
      ctx.remove('Location');
      ctx.status = 200;
      const body: GoogleLinkStart = { url };
      ctx.body = body;
    },
    unlink: async (ctx) => {
      const { user } = ctx.state as AuthState;
      const allowed = await linkLimit.take(user.userId);
      if (!allowed.ok) throw new HttpError(429, ERR.tooManyAttempts, 'rate_limited', { 'Retry-After': String(allowed.retryAfterS) });
      await auth.unlinkGoogle(user.userId);
      ctx.status = 204;
    },
    callback: (ctx, next) =>
      passport.authenticate(
        'google',
        { session: false, callbackURL: callbackUrl(ctx) },
        async (err: unknown, signedIn: GoogleOutcome | false) => {
          ctx.set('Cache-Control', 'no-store');
          // A link started in Settings goes back there, with how it went (declined or refused too:
          // the browser's own signed state says it was a link, though it links nothing now).
          if ((ctx.state as GoogleFlowState).googleLink || stateStore.wasLink(ctx)) {
            if (err instanceof DomainError && err.code.startsWith('google_')) return ctx.redirect(`${LINK_RETURN}?google=${err.code}`);
            if (err) log.warn({ err, reqId: ctx.state.reqId }, 'linking Google failed');
            return ctx.redirect(`${LINK_RETURN}?google=${signedIn && 'linked' in signedIn ? 'linked' : 'google_link_failed'}`);
          }
          if (signedIn && 'linked' in signedIn) return ctx.redirect('/login?error=google_sign_in_failed');
          if (err) {
            if (err instanceof DomainError && (err.code === 'account_suspended' || err.code === 'device_banned'))
              return ctx.redirect('/login?error=account_suspended');
            log.warn({ err, reqId: ctx.state.reqId }, 'Google sign-in failed');
            return ctx.redirect('/login?error=google_sign_in_failed');
          }
          // No user: the person declined on Google's screen, or the state did not match.
          if (!signedIn) return ctx.redirect('/login?error=google_sign_in_failed');
          if ('secondFactorDue' in signedIn) {
            await secondFactorDue(ctx, signedIn.secondFactorDue);
            return ctx.redirect('/login?second_factor=1');
          }
          setRefreshCookie(ctx, cfg, signedIn.refresh);
          // Age and gender are asked once, on the confirm page, before the app opens.
          ctx.redirect(signedIn.account.isVerified ? '/dashboard' : '/confirm-account');
        },
      )(ctx, next),
  };
}

/** The profile request sends the access token in the Authorization header, never in the URL (RFC 6750). */
class GoogleStrategy extends GoogleOAuth.Strategy {
  constructor(
    options: GoogleOAuth.StrategyOptionsWithRequest,
    verify: (req: unknown, accessToken: string, refreshToken: string, profile: Profile, done: GoogleOAuth.VerifyCallback) => void,
  ) {
    super(options, verify);
    this._oauth2.useAuthorizationHeaderforGET(true);
  }
}

function googleProfileOf(profile: Profile) {
  return {
    googleId: profile.id,
    displayName: profile.displayName,
    email: profile.emails?.[0]?.value,
    picture: profile.photos?.[0]?.value,
  };
}

type PassportReq = { ctx: Context; query: Record<string, unknown> };
/** The signed-in account a Google round trip links to: set by `link` before it starts, by the state store on the way back. */
type GoogleFlowState = { googleLink?: { userId: string; familyId: string } };
/** What the strategy's verify hands the callback: a sign-in, a second step due, or a link made. */
type GoogleOutcome = SignedIn | SecondFactorDue | { linked: Account };
type StoreCallback = (err: Error | null, handle?: string) => void;
type VerifyCallback = (err: Error | null, verifierOrOk: string | false, info?: { message: string }) => void;

/**
 * passport-oauth2's state store without sessions: the `state` handle and the PKCE verifier go
 * into a short-lived httpOnly cookie, signed with an HMAC so it cannot be forged; the callback
 * accepts only the state that this browser's cookie carries, and each state once. (passport calls `store` with five
 * arguments when PKCE is on, `verify` with three.)
 */
class SignedStateStore {
  readonly #key: Buffer;
  readonly #cfg: AppDeps['cfg'];
  /** Handles already presented: a state cookie copied before its use is refused afterwards too. */
  readonly #spent: Limiter;

  constructor(secret: Uint8Array, cfg: AppDeps['cfg'], spent: Limiter) {
    this.#key = createHmac('sha256', secret).update('parley oauth state').digest();
    this.#cfg = cfg;
    this.#spent = spent;
  }

  store(req: PassportReq, verifier: string | undefined, _state: unknown, _meta: unknown, done: StoreCallback): void {
    const handle = randomBytes(18).toString('base64url');
    const link = (req.ctx.state as GoogleFlowState).googleLink;
    const payload = Buffer.from(
      JSON.stringify({
        h: handle,
        v: verifier ?? '',
        e: Date.now() + STATE_TTL_MS,
        ...(link ? { l: { u: link.userId, s: link.familyId } } : {}),
      }),
    ).toString('base64url');
    req.ctx.cookies.set(STATE_COOKIE, `${payload}.${this.#sign(payload)}`, {
      httpOnly: true,
      sameSite: 'lax',
      secure: secureCookies(req.ctx, this.#cfg),
      path: STATE_COOKIE_PATH,
      maxAge: STATE_TTL_MS,
      overwrite: true,
    });
    done(null, handle);
  }

  /** Whether this browser's state cookie (signed by us, whatever else about it) was a link's: only where to send it back. */
  wasLink(ctx: Context): boolean {
    const [payload, mac] = (ctx.cookies.get(STATE_COOKIE) ?? '').split('.');
    if (!payload || !mac || !equal(mac, this.#sign(payload))) return false;
    try {
      return Boolean((JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { l?: unknown }).l);
    } catch {
      return false;
    }
  }

  verify(req: PassportReq, provided: string, done: VerifyCallback): void {
    const cookie = req.ctx.cookies.get(STATE_COOKIE) ?? '';
    // One use only: the cookie goes whatever the outcome.
    req.ctx.cookies.set(STATE_COOKIE, '', {
      path: STATE_COOKIE_PATH,
      expires: new Date(0),
      httpOnly: true,
      sameSite: 'lax',
      overwrite: true,
    });
    const fail = () => done(null, false, { message: 'Invalid authorization request state.' });
    const [payload, mac] = cookie.split('.');
    if (!payload || !mac || !equal(mac, this.#sign(payload))) return fail();
    let saved: { h?: unknown; v?: unknown; e?: unknown; l?: { u?: unknown; s?: unknown } };
    try {
      saved = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as typeof saved;
    } catch {
      return fail();
    }
    if (typeof saved.h !== 'string' || typeof provided !== 'string' || !equal(saved.h, provided)) return fail();
    if (typeof saved.e !== 'number' || saved.e < Date.now() || typeof saved.v !== 'string' || !saved.v) return fail();
    const link = saved.l;
    if (link && (typeof link.u !== 'string' || typeof link.s !== 'string')) return fail();
    const verifier = saved.v;
    this.#spent.take(saved.h).then(
      (first) => {
        if (!first.ok) return fail();
        // A link started while signed in: the callback links to that sign-in's account instead of signing in.
        if (link) (req.ctx.state as GoogleFlowState).googleLink = { userId: link.u as string, familyId: link.s as string };
        done(null, verifier);
      },
      (err: Error) => done(err, false),
    );
  }

  #sign(payload: string): string {
    return createHmac('sha256', this.#key).update(payload).digest('base64url');
  }
}

function equal(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Parley's look (the app's colours, its mark, a card) without the app: it leads back to sign-in. */
const notConfiguredPage = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="theme-color" content="#4338ca">
<link rel="icon" href="/icons/favicon.svg" type="image/svg+xml">
<title>Google sign-in unavailable · Parley</title>
<style>
  * { box-sizing: border-box; }
  body { margin: 0; min-height: 100vh; background: #f8fafc; color: #0f172a; font-family: ui-sans-serif, system-ui, sans-serif; }
  header { display: flex; align-items: center; gap: .5rem; height: 4rem; padding: 0 1rem; background: #fff; border-bottom: 1px solid #e2e8f0; }
  header a { display: inline-flex; align-items: center; gap: .5rem; color: #0f172a; font-size: 1.25rem; font-weight: 700; text-decoration: none; border-radius: .5rem; }
  main { display: flex; justify-content: center; padding: 2.5rem 1rem; }
  .card { width: 100%; max-width: 28rem; background: #fff; border: 1px solid #e2e8f0; border-radius: 1rem; padding: 2rem 1.5rem; box-shadow: 0 1px 2px rgb(0 0 0 / .05); }
  h1 { margin: 0; font-size: 1.5rem; line-height: 1.3; }
  p { color: #334155; line-height: 1.5; }
  .button { display: block; margin-top: 1.5rem; padding: .625rem 1rem; border-radius: .5rem; background: #4338ca; color: #fff; font-weight: 600; text-align: center; text-decoration: none; }
  .button:hover { background: #3730a3; }
  a:focus-visible { outline: 2px solid #4338ca; outline-offset: 2px; }
</style>
</head>
<body>
<header><a href="/"><svg viewBox="0 0 32 32" width="32" height="32" aria-hidden="true" focusable="false"><path d="M4 6.5A4.5 4.5 0 0 1 8.5 2h11A4.5 4.5 0 0 1 24 6.5v6a4.5 4.5 0 0 1-4.5 4.5H12l-5 4v-4.2A4.5 4.5 0 0 1 4 12.5z" fill="#4338ca"/><path d="M28 15.5a4.5 4.5 0 0 0-4.5-4.5h-9a4.5 4.5 0 0 0-4.5 4.5v5a4.5 4.5 0 0 0 4.5 4.5h6l5 4v-4.3a4.5 4.5 0 0 0 2.5-4.2z" fill="#f43f5e" fill-opacity="0.92"/><circle cx="15.5" cy="18" r="1.3" fill="#fff"/><circle cx="19" cy="18" r="1.3" fill="#fff"/><circle cx="22.5" cy="18" r="1.3" fill="#fff"/></svg>Parley</a></header>
<main id="main">
  <div class="card">
    <h1>${ERR.googleNotConfigured}</h1>
    <p>The people running this Parley server have not set it up with Google yet. You can still sign in, or create an account, with a username and password.</p>
    <a class="button" href="/login">Back to sign in</a>
  </div>
</main>
</body>
</html>
`;
