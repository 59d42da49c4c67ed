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

/** Zero-width spaces, joiners and no-break spaces: a word with one inside looks like the word without it. */
const ZERO_WIDTH = /[\u200B-\u200D\u2060\uFEFF]/;
/** The joiner inside an emoji sequence (👩‍💻): it draws one picture and hides nothing. */
const EMOJI_JOINER = /(?<=\p{Extended_Pictographic}(?:[\u{1F3FB}-\u{1F3FF}]|\uFE0F)?)\u200D(?=\p{Extended_Pictographic})/gu;
/** The non-joiner between letters of the scripts that need it to be spelled right (Persian, Hindi…). */
const SCRIPT_NON_JOINER =
  /(?<=[\p{sc=Arabic}\p{sc=Syriac}\p{sc=Devanagari}\p{sc=Bengali}\p{sc=Gurmukhi}\p{sc=Gujarati}\p{sc=Oriya}\p{sc=Tamil}\p{sc=Telugu}\p{sc=Kannada}\p{sc=Malayalam}\p{sc=Sinhala}]\p{M}*)\u200C(?=\p{L})/gu;

/** Why a title or name strangers see cannot be shown as written, or undefined when it can. */
export function displayNameProblem(s: string): 'hidden' | 'link' | undefined {
  const visible = s.replace(EMOJI_JOINER, '').replace(SCRIPT_NON_JOINER, '');
  if (MISLEADING_CHARS.test(visible) || INVISIBLE_CHARS.test(visible) || ZERO_WIDTH.test(visible)) return 'hidden';
  if (LINK_LIKE.test(s)) return 'link';
  return undefined;
}

/**
 * The check of every title or name shown to strangers (a stream's title, a group room's name):
 * no bidirectional controls, zero-width or control characters, which disguise what it says, and
 * no link text, which would turn a listing into an advert. `label` starts the message: "Title".
 */
export const displayName =
  (label: string) =>
  (s: string, ctx: z.RefinementCtx): void => {
    const problem = displayNameProblem(s);
    if (problem === 'hidden') ctx.addIssue({ code: 'custom', message: `${label} cannot contain invisible or control characters` });
    if (problem === 'link') ctx.addIssue({ code: 'custom', message: `${label} cannot contain a link or web address` });
  };
