/**
 * What a web page says of itself for a preview: Open Graph, then Twitter card, then plain HTML
 * (<title>, meta description). Read with regular expressions from the page's first bytes, never
 * run or rendered; every value is plain text (entities decoded, whitespace collapsed, cut short).
 */

export type PageCard = { title: string; description: string; siteName: string; imageUrl: string | null };

const TITLE_CHARS = 200;
const DESCRIPTION_CHARS = 300;
const SITE_CHARS = 80;

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', '#39': "'" };

export function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]{2,8}|#39);/gi, (all, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : '';
    }
    return NAMED[name.toLowerCase()] ?? all;
  });
}

const clean = (s: string | undefined, max: number) => {
  if (!s) return '';
  const t = decodeEntities(s)
    // eslint-disable-next-line no-control-regex -- a page's controls are made spaces
    .replace(/[\u0000-\u001f\u007f]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return t.length > max ? `${t.slice(0, max - 1).trimEnd()}…` : t;
};

function attributes(tag: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of tag.matchAll(/([a-zA-Z_:-]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/g)) {
    out[m[1]!.toLowerCase()] = m[2] ?? m[3] ?? m[4] ?? '';
  }
  return out;
}

/** The charset a page declares in a <meta> tag, when its Content-Type did not say. */
export function declaredCharset(head: string): string | undefined {
  return /<meta[^>]+charset\s*=\s*["']?([\w-]+)/i.exec(head)?.[1];
}

/** Decodes a page's bytes in its charset (Content-Type's, else its <meta>'s, else UTF-8). */
export function pageText(body: Buffer, contentType: string): string {
  const ascii = body.subarray(0, 2048).toString('latin1');
  const label = /charset=([\w-]+)/i.exec(contentType)?.[1] ?? declaredCharset(ascii) ?? 'utf-8';
  try {
    return new TextDecoder(label).decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}

export function pageCard(html: string, base: URL): PageCard {
  const meta = new Map<string, string>();
  for (const m of html.matchAll(/<meta\b([^>]*)>/gi)) {
    const a = attributes(m[1]!);
    const key = (a.property ?? a.name ?? '').toLowerCase();
    if (key && a.content !== undefined && !meta.has(key)) meta.set(key, a.content);
  }
  const first = (...keys: string[]) => keys.map((k) => meta.get(k)).find((v) => v !== undefined && v.trim() !== '');
  const title = first('og:title', 'twitter:title') ?? /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html)?.[1];
  const description = first('og:description', 'twitter:description', 'description');
  const siteName = first('og:site_name', 'application-name') ?? base.hostname;
  const image = first('og:image:secure_url', 'og:image:url', 'og:image', 'twitter:image', 'twitter:image:src');
  let imageUrl: string | null = null;
  if (image) {
    try {
      const u = new URL(decodeEntities(image.trim()), base);
      if (u.protocol === 'http:' || u.protocol === 'https:') imageUrl = u.href;
    } catch {
      imageUrl = null;
    }
  }
  return {
    title: clean(title, TITLE_CHARS),
    description: clean(description, DESCRIPTION_CHARS),
    siteName: clean(siteName, SITE_CHARS),
    imageUrl,
  };
}
