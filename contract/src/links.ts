import { z } from 'zod';
import { text } from './text.ts';
import { messageIdSchema, roomIdSchema } from './rooms.ts';

/**
 * Links in messages: which parts of a text are web links (http and https only: any other scheme
 * stays text), and the preview the server makes of one (its title, description and image, fetched
 * by the server so a reader's address never reaches the linked site).
 */

export type LinkSpan = { start: number; end: number; url: string };

const CANDIDATE = /\bhttps?:\/\/[^\s<>"'`]+/gi;
/** Punctuation that ends a sentence rather than the link before it. */
const TRAILING = /[.,;:!?'"\u00bb)\]]+$/;

/** The web links of a text, in order: where each starts and ends, and its URL as written. */
export function findLinks(s: string): LinkSpan[] {
  if (!s.includes('://')) return [];
  const out: LinkSpan[] = [];
  for (const m of s.matchAll(CANDIDATE)) {
    let url = m[0];
    const trail = TRAILING.exec(url);
    if (trail) {
      // A closing bracket that closes one opened inside the link stays (Wikipedia's "Foo_(bar)").
      let cut = trail[0];
      if (cut.startsWith(')') && (url.match(/\(/g)?.length ?? 0) > (url.slice(0, -cut.length).match(/\)/g)?.length ?? 0))
        cut = cut.slice(1);
      url = url.slice(0, url.length - cut.length);
    }
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      continue;
    }
    if ((parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || parsed.hostname === '') continue;
    out.push({ start: m.index, end: m.index + url.length, url });
  }
  return out;
}

/** GET /api/links/preview?roomId=&messageId=: the preview of a message's first link. */
export const linkPreviewQuerySchema = z.object({ roomId: roomIdSchema, messageId: messageIdSchema });

/** GET /api/links/image?u=&s=: a preview's image, re-encoded by the server; `s` is the server's signature of `u`. */
export const linkImageQuerySchema = z.object({
  u: text().min(1).max(2048),
  s: text().regex(/^[0-9a-f]{64}$/, 'Unknown image'),
});

export type LinkPreview = {
  url: string;
  title: string;
  description: string;
  siteName: string;
  /** Our own path to the image (never the site's), or null. */
  image: string | null;
};

/** `preview` null: the message has no link, or nothing could be shown of it. */
export type LinkPreviewAnswer = { preview: LinkPreview | null };

export const linkPreviewAnswerCheck = z.object({
  preview: z
    .object({ url: z.string(), title: z.string(), description: z.string(), siteName: z.string(), image: z.string().nullable() })
    .nullable(),
});
