import type { ReturnToState } from '../../lib/returnTo';

/**
 * A `?returnTo=/path?query#hash` of a link to /login (one that must survive a reload or a new tab,
 * such as the payment page's), as the router state the sign-in guards carry. Only a path of this
 * app: anything that resolves to another origin is dropped (returnToPath checks the rest).
 */
export function returnToState(value: string | null, origin?: string): ReturnToState | null {
  if (!value || !value.startsWith('/') || value.startsWith('//')) return null;
  // Read only when there is a path to check: the login page is also rendered at build time.
  origin ??= window.location.origin;
  let url: URL;
  try {
    url = new URL(value, origin);
  } catch {
    return null;
  }
  if (url.origin !== origin) return null;
  return { from: { pathname: url.pathname, search: url.search, hash: url.hash } };
}
