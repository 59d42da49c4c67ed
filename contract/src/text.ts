import { z } from 'zod';

/** NUL: PostgreSQL cannot store it in text and nobody types it; it only ever comes from a probe. */
export const NUL_REFUSED = 'Text cannot contain NUL characters';
const hasNul = (s: string) => s.includes('\u0000');

/** Every string a client sends goes through this: NUL is refused (400, or a socket error) before anything else sees it. */
export const text = (params?: Parameters<typeof z.string>[0]) => z.string(params).refine((s) => !hasNul(s), NUL_REFUSED);

/**
 * Characters that change how text is shown without being seen: bidirectional overrides, embeddings,
 * isolates and marks (they can turn "gpj.exe" into "exe.jpg" or disguise a link), and the C0 and C1
 * controls other than tab and line breaks.
 */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
export const MISLEADING_CHARS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/;
/** Zero-width and other invisible characters that can hide inside a word (not the joiners emoji need). */
export const INVISIBLE_CHARS = /[\u00AD\u180E\u200B\u2060-\u2064\uFEFF]/;
const SHOWN = new RegExp(`${MISLEADING_CHARS.source}|${INVISIBLE_CHARS.source}`, 'g');

/**
 * Splits text into plain runs and the hidden characters among them, so a screen can show each of
 * those as a visible code (U+202E) instead of letting it act.
 */
export function revealHidden(s: string): Array<{ text: string; hidden: boolean }> {
  const parts: Array<{ text: string; hidden: boolean }> = [];
  let at = 0;
  for (const m of s.matchAll(SHOWN)) {
    if (m.index > at) parts.push({ text: s.slice(at, m.index), hidden: false });
    parts.push({ text: `U+${m[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`, hidden: true });
    at = m.index + m[0].length;
  }
  if (at < s.length) parts.push({ text: s.slice(at), hidden: false });
  return parts;
}

/** Something a link could be made of: a scheme, www., an e-mail or a host name with a top-level domain. */
export const LINK_LIKE =
  /(^|[^a-z0-9])([a-z][a-z0-9+.-]*:\/\/|www\.|[^\s@]+@[^\s@]+\.[a-z]{2,}|[a-z0-9-]+\.(?:[a-z0-9-]+\.)*[a-z]{2,}(?:$|[\s/:?#]))/i;
