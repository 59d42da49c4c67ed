/** What the click handler needs of a window client and of `self.clients` (a subset, so it can be tested). */
export type WindowClientLike = { url: string; focus(): Promise<unknown>; postMessage(message: unknown): void };
export type ClientsLike = {
  matchAll(options: { type: 'window'; includeUncontrolled: boolean }): Promise<readonly WindowClientLike[]>;
  openWindow(url: string): Promise<unknown>;
};

/** Only a path of this app is ever opened from a notification; anything else opens the dashboard. */
export const appPath = (link: unknown) => (typeof link === 'string' && /^\/(?![/\\])/.test(link) ? link : '/dashboard');

/**
 * A notification was clicked: an open Parley window is brought forward and told to go to the link
 * (its router moves without a reload), or a new window opens there.
 */
export async function openFromNotification(clients: ClientsLike, origin: string, data: unknown): Promise<'navigated' | 'opened'> {
  const link = appPath((data as { link?: unknown } | null)?.link);
  const windows = await clients.matchAll({ type: 'window', includeUncontrolled: true });
  const open = windows.find((w) => new URL(w.url).origin === origin);
  if (!open) {
    await clients.openWindow(link);
    return 'opened';
  }
  // A browser that refuses to focus still lets the window navigate: the link must not be lost.
  await open.focus().catch(() => undefined);
  open.postMessage({ type: 'NAVIGATE', link });
  return 'navigated';
}
