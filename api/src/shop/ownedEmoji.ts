import { SHORTCODE } from '@parley/contract/shop';

/** How long a user's loaded emoji are trusted before the next message reloads them (another process may have sold a pack). */
const FRESH_MS = 60_000;
/** Entries unused this long are dropped. */
const IDLE_MS = 10 * 60_000;

type Entry = { names: Set<string>; loadedAt: number; usedAt: number; loading: boolean };

/**
 * The emoji each connected user owns, in memory, so the relay can mark a message's shortcodes
 * synchronously: loaded when a user connects, again after a purchase, and again when older than
 * FRESH_MS (in the background; the message at hand uses what is known).
 */
export function ownedEmojiCache(
  load: (userId: string) => Promise<string[]>,
  onError: (err: unknown) => void,
  /** False for a user known to own no emoji: nothing to load or look for. */
  mayOwn: (userId: string) => boolean = () => true,
  now = Date.now,
) {
  const entries = new Map<string, Entry>();

  function refresh(userId: string) {
    const e = entries.get(userId) ?? { names: new Set<string>(), loadedAt: 0, usedAt: now(), loading: false };
    entries.set(userId, e);
    if (e.loading) return;
    e.loading = true;
    load(userId)
      .then((names) => {
        e.names = new Set(names);
        e.loadedAt = now();
      }, onError)
      .finally(() => (e.loading = false));
  }

  const sweep = setInterval(() => {
    const t = now();
    for (const [userId, e] of entries) if (t - e.usedAt > IDLE_MS) entries.delete(userId);
  }, IDLE_MS);
  sweep.unref();

  return {
    refresh,
    /** A user connected: their emoji are loaded unless they are known to own none. */
    connected(userId: string) {
      if (mayOwn(userId)) refresh(userId);
    },
    /**
     * The shortcodes in `text` that `userId` owns, each once, or undefined when there are none.
     * Most messages have no colon: one `includes` and nothing else.
     */
    verified(userId: string, text: string): string[] | undefined {
      if (!text.includes(':') || !mayOwn(userId)) return undefined;
      const e = entries.get(userId);
      if (!e) {
        refresh(userId);
        return undefined;
      }
      const t = now();
      e.usedAt = t;
      if (t - e.loadedAt > FRESH_MS) refresh(userId);
      if (e.names.size === 0) return undefined;
      let found: Set<string> | undefined;
      for (const m of text.matchAll(SHORTCODE)) if (e.names.has(m[1]!)) (found ??= new Set()).add(m[1]!);
      return found && [...found];
    },
    close: () => clearInterval(sweep),
  };
}
