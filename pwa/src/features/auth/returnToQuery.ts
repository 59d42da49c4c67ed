import { useState } from 'react';
import { useLocation, useSearchParams } from 'react-router-dom';
import { returnToPath, type ReturnToState } from '../../lib/returnTo';

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

/**
 * Where the sign-in and sign-up pages send a person once signed in: the guard's or a link's router
 * state, else a link's `?returnTo=` path (a link followed before the app ran, on a pre-rendered
 * page, carries no router state). Read once, as the page opens; `from` is passed on between the two
 * pages.
 */
export function useReturnTo(): { from: ReturnToState | null; target: string } {
  const location = useLocation();
  const [searchParams] = useSearchParams();
  const [from] = useState(() =>
    (location.state as ReturnToState | null)?.from ? (location.state as ReturnToState) : returnToState(searchParams.get('returnTo')),
  );
  return { from, target: returnToPath(from) };
}
