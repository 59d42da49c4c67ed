import { randomBytes } from 'node:crypto';
import type { Context } from 'koa';
import { DEVICE_ID } from '../db/devices.ts';
import { REFRESH_COOKIE_NAME, REFRESH_COOKIE_PATH } from '@parley/contract/constants';
import { publicUrl, type Config } from '../platform/config.ts';
import type { KnownDeviceCookie, KnownDevices } from './knownDevices.ts';
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

const DEVICE_COOKIE = 'parley_device';
const DEVICE_COOKIE_DAYS = 730;

/**
 * This browser's device id, set on first use: a ban holds against new accounts made from the
 * same browser. httpOnly, so no page script (or extension in it) can read or reset it.
 */
export function deviceId(ctx: Context, cfg: Config): string {
  const known = ctx.cookies.get(DEVICE_COOKIE);
  if (known && DEVICE_ID.test(known)) return known;
  const id = randomBytes(16).toString('base64url');
  ctx.cookies.set(DEVICE_COOKIE, id, {
    httpOnly: true,
    sameSite: 'lax',
    secure: secureCookies(ctx, cfg),
    path: '/api/auth',
    expires: new Date(Date.now() + DEVICE_COOKIE_DAYS * 24 * 60 * 60 * 1000),
    overwrite: true,
  });
  return id;
}

/** The "known device" cookie of a successful sign-in: httpOnly, so no page script can copy it elsewhere. */
export function setKnownDeviceCookie(ctx: Context, cfg: Config, cookie: KnownDeviceCookie): void {
  ctx.cookies.set(cookie.name, cookie.value, {
    httpOnly: true,
    sameSite: 'lax',
    secure: secureCookies(ctx, cfg),
    path: '/api/auth',
    expires: cookie.expires,
    overwrite: true,
  });
}

/** The id of this browser's known-device cookie for the username key, when it carries a valid one. */
export function knownDeviceOf(ctx: Context, known: KnownDevices, userKey: string): string | undefined {
  return known.verify(userKey, ctx.cookies.get(known.nameFor(userKey)));
}
