/**
 * A hint, not a credential: whether this browser had a session the last time we looked. Without
 * it an anonymous visitor's start-up refresh would be a 401 on every landing page load (a console
 * error and a wasted round trip). The refresh token itself stays in its httpOnly cookie.
 */
const KEY = 'parley.hasSession';

// Public pages that render the same for everyone: the session check may wait there.
const ANONYMOUS_PAGES = new Set(['/', '/login', '/createaccount', '/privacy-policy', '/terms-of-service', '/rules']);

function storage(): Storage | null {
  try {
    return typeof window !== 'undefined' ? window.localStorage : null;
  } catch {
    return null;
  }
}

export function rememberSession(active: boolean) {
  try {
    if (active) storage()?.setItem(KEY, '1');
    else storage()?.removeItem(KEY);
  } catch {
    // Storage refused: every start then simply asks the server.
  }
}

/** Whether this browser had a session when last seen here (true when it cannot know). */
export function hadSessionHere(): boolean {
  const store = storage();
  if (!store) return true; // Cannot know: assume so.
  try {
    return store.getItem(KEY) === '1';
  } catch {
    return true;
  }
}

/** Whether starting the app on this page should ask the server for the session at once. */
export function shouldRestoreAtStart(pathname: string): boolean {
  return !ANONYMOUS_PAGES.has(pathname) || hadSessionHere();
}
