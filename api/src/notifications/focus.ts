import type { Focus } from '@parley/contract/notifications';

/**
 * What each user's pages show now, as they report it (`notification:focus`), per socket: a
 * notification whose link a visible page shows is not pushed (the person is reading it).
 * Held in this process: with several processes a user's pages on another one are not seen, and
 * the push goes out, which errs on the side of telling.
 */
export function focusTracker() {
  const byUser = new Map<string, Map<string, Focus>>();
  return {
    set(userId: string, socketId: string, focus: Focus) {
      let pages = byUser.get(userId);
      if (!pages) byUser.set(userId, (pages = new Map()));
      pages.set(socketId, focus);
    },
    forget(userId: string, socketId: string) {
      const pages = byUser.get(userId);
      if (!pages) return;
      pages.delete(socketId);
      if (pages.size === 0) byUser.delete(userId);
    },
    /** Whether a visible page of the user shows `link` now. */
    isLooking(userId: string, link: string): boolean {
      for (const f of byUser.get(userId)?.values() ?? []) if (f.visible && f.path === link) return true;
      return false;
    },
  };
}
export type FocusTracker = ReturnType<typeof focusTracker>;
