import type { Context } from 'koa';
import { REFRESH_COOKIE_NAME, REFRESH_COOKIE_PATH } from '@parley/contract/constants';
import { publicUrl, type Config } from '../platform/config.ts';
import type { RefreshGrant } from './refreshTokens.ts';

/**
 * Secure when the public address is https (TLS usually ends at the reverse proxy, so the
 * request itself may look like plain http) or when the request really came over https.
 */
export function secureCookies(ctx: Context, cfg: Config): boolean {
  const secure = publicUrl(cfg).startsWith('https:') || ctx.secure;
  // koa's cookie jar refuses Secure cookies on a connection it believes is plain http.
  if (secure) ctx.cookies.secure = true;
  return secure;
}

export function setRefreshCookie(ctx: Context, cfg: Config, grant: RefreshGrant): void {
  ctx.cookies.set(REFRESH_COOKIE_NAME, grant.token, {
    httpOnly: true,
    sameSite: 'lax',
    secure: secureCookies(ctx, cfg),
    path: REFRESH_COOKIE_PATH,
    expires: grant.expiresAt,
    overwrite: true,
  });
}

export function clearRefreshCookie(ctx: Context, cfg: Config): void {
  ctx.cookies.set(REFRESH_COOKIE_NAME, '', {
    httpOnly: true,
    sameSite: 'lax',
    secure: secureCookies(ctx, cfg),
    path: REFRESH_COOKIE_PATH,
    expires: new Date(0),
    overwrite: true,
  });
}

export function refreshCookie(ctx: Context): string | undefined {
  return ctx.cookies.get(REFRESH_COOKIE_NAME) || undefined;
}
