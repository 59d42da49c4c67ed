/** Rooms (partners) one person may send the same link to within LINK_WINDOW_MS. */
export const LINK_PARTNERS = 5;
export const LINK_WINDOW_MS = 60 * 60 * 1000;
const MAX_KEYS = 50_000;
const HOSTISH = /(?:[a-z][a-z0-9+.-]*:\/\/)?(?:www\.)?((?:[a-z0-9-]+\.)+[a-z]{2,})(\/[^\s]*)?/gi;

/** The links of a message, normalised (no scheme, no www., lower case host) so trivial variants count as one. */
export function linksOf(text: string): string[] {
  const found = new Set<string>();
  for (const m of text.matchAll(HOSTISH)) found.add(`${m[1]!.toLowerCase()}${(m[2] ?? '').replace(/\/+$/, '')}`);
  return [...found];
}

/**
 * Spam that copies one link to stranger after stranger: the same link may go to LINK_PARTNERS
 * different rooms an hour; talking about it with one partner is never limited. Per process and
 * bounded (oldest keys dropped first).
 */
export function linkSpamGuard(now = () => Date.now()) {
  const sent = new Map<string, { since: number; rooms: Set<string> }>();
  return {
    allow(userId: string, roomId: string, text: string): boolean {
      // Every link has a dot: most messages are settled without the regular expression.
      if (!text.includes('.')) return true;
      const links = linksOf(text);
      if (links.length === 0) return true;
      const t = now();
      for (const link of links) {
        const key = `${userId} ${link}`;
        let e = sent.get(key);
        if (!e || t - e.since > LINK_WINDOW_MS) e = { since: t, rooms: new Set() };
        if (!e.rooms.has(roomId) && e.rooms.size >= LINK_PARTNERS) return false;
        e.rooms.add(roomId);
        sent.delete(key);
        sent.set(key, e);
      }
      while (sent.size > MAX_KEYS) sent.delete(sent.keys().next().value!);
      return true;
    },
  };
}
