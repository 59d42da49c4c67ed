/** Where a user was going when a guard sent them to sign in; carried in the router's location state. */
export type ReturnToState = { from?: { pathname: string; search?: string; hash?: string } };

const AUTH_PAGES = new Set(['/login', '/createaccount']);

/** The page to open after signing in: the one asked for, else the dashboard. Only same-app paths. */
export function returnToPath(state: unknown, fallback = '/dashboard'): string {
  const from = (state as ReturnToState | null)?.from;
  if (!from || typeof from.pathname !== 'string' || !from.pathname.startsWith('/') || from.pathname.startsWith('//')) return fallback;
  if (AUTH_PAGES.has(from.pathname)) return fallback;
  return `${from.pathname}${from.search ?? ''}${from.hash ?? ''}`;
}
