import { REFRESH_COOKIE_NAME } from '@parley/contract/constants';

/** Test helper: the Set-Cookie line of the refresh cookie in a response. */
export function refreshSetCookie(res: Response): string | undefined {
  return res.headers.getSetCookie().find((c) => c.startsWith(`${REFRESH_COOKIE_NAME}=`));
}

/** Test helper: the `Cookie` header a browser would send back for the refresh cookie. */
export function refreshCookieHeader(res: Response): string {
  const line = refreshSetCookie(res);
  if (!line) throw new Error('response set no refresh cookie');
  return line.split(';')[0]!;
}
