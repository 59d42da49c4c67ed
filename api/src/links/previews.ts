import { createHmac, createSecretKey, timingSafeEqual } from 'node:crypto';
import { loadSharp } from '../platform/sharp.ts';
import type { LinkPreview } from '@parley/contract/links';
import { safeFetch, type SafeFetchOptions } from '../platform/safeFetch.ts';
import { pageCard, pageText } from './page.ts';

/** How long a preview (or that a link has none) is kept: pages change, but not by the minute. */
export const PREVIEW_TTL_MS = 6 * 60 * 60 * 1000;
/** A link that could not be fetched is tried again after this long. */
export const FAILED_TTL_MS = 10 * 60 * 1000;
const PREVIEWS_KEPT = 2000;
const IMAGES_KEPT = 300;
/** A page's first bytes: where its <head> and meta tags are. */
const PAGE_BYTES = 512 * 1024;
const IMAGE_BYTES = 5 * 1024 * 1024;
/** Images are re-encoded no larger than this on either side (a card shows them small). */
const IMAGE_SIDE = 600;
const IMAGE_PIXELS_MAX = 40_000_000;
const IMAGE_FORMATS = new Set(['jpeg', 'png', 'webp', 'gif', 'avif']);

/** A map that forgets its least recently used entries past `max`, and each entry after its time. */
function expiringCache<V>(max: number) {
  const entries = new Map<string, { value: V; until: number }>();
  return {
    get(key: string, now: number): V | undefined {
      const e = entries.get(key);
      if (!e) return undefined;
      entries.delete(key);
      if (e.until <= now) return undefined;
      entries.set(key, e);
      return e.value;
    },
    set(key: string, value: V, until: number) {
      entries.delete(key);
      entries.set(key, { value, until });
      while (entries.size > max) entries.delete(entries.keys().next().value!);
    },
  };
}

export type LinkPreviewsDeps = {
  /** The server's secret: signs the image addresses it hands out, so its image proxy serves no other. */
  secret: Uint8Array;
  fetch?: SafeFetchOptions;
  now?: () => number;
};

/**
 * Previews of links, each made once per process and kept a while (memory: a preview is small and
 * cheap to make again, and a page's card going stale after hours is what a cache of it should do;
 * nothing of a third party's page is stored for good). Their images are fetched by the server and
 * re-encoded (WebP, at most 600 px), served from our own address under a signature: a reader's
 * browser never asks the linked site for anything.
 */
export function linkPreviews(deps: LinkPreviewsDeps) {
  const now = deps.now ?? Date.now;
  const key = createSecretKey(createHmac('sha256', deps.secret).update('parley.link-image.v1').digest());
  const sign = (u: string) => createHmac('sha256', key).update(u).digest('hex');
  const previews = expiringCache<LinkPreview | null>(PREVIEWS_KEPT);
  const images = expiringCache<Buffer | null>(IMAGES_KEPT);
  const making = new Map<string, Promise<unknown>>();

  /** One fetch at a time per key, however many readers ask at once. */
  function shared<T>(k: string, make: () => Promise<T>): Promise<T> {
    const running = making.get(k) as Promise<T> | undefined;
    if (running) return running;
    const p = make().finally(() => making.delete(k));
    making.set(k, p);
    return p;
  }

  async function makePreview(url: string): Promise<LinkPreview | null> {
    try {
      const page = await safeFetch(url, { ...deps.fetch, maxBytes: PAGE_BYTES, accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1' });
      if (page.status < 200 || page.status >= 300 || !/^(text\/html|application\/xhtml\+xml)/i.test(page.contentType)) return null;
      const card = pageCard(pageText(page.body, page.contentType), new URL(page.url));
      if (!card.title && !card.description) return null;
      return {
        url,
        title: card.title,
        description: card.description,
        siteName: card.siteName,
        image: card.imageUrl ? `/api/links/image?u=${encodeURIComponent(card.imageUrl)}&s=${sign(card.imageUrl)}` : null,
      };
    } catch {
      return null;
    }
  }

  async function makeImage(url: string): Promise<Buffer | null> {
    try {
      const sharp = await loadSharp();
      const res = await safeFetch(url, { ...deps.fetch, maxBytes: IMAGE_BYTES, accept: 'image/*' });
      if (res.status < 200 || res.status >= 300 || res.truncated || !/^image\//i.test(res.contentType)) return null;
      const meta = await sharp(res.body, { limitInputPixels: IMAGE_PIXELS_MAX }).metadata();
      // Raster images only: an SVG is a document that could ask for more.
      if (!meta.format || !IMAGE_FORMATS.has(meta.format)) return null;
      return await sharp(res.body, { limitInputPixels: IMAGE_PIXELS_MAX })
        .rotate()
        .resize(IMAGE_SIDE, IMAGE_SIDE, { fit: 'inside', withoutEnlargement: true })
        .webp({ quality: 75 })
        .toBuffer();
    } catch {
      return null;
    }
  }

  return {
    /** The preview of a link, or null when it has none that can be shown. */
    async preview(url: string): Promise<LinkPreview | null> {
      const cached = previews.get(url, now());
      if (cached !== undefined) return cached;
      return shared(`p ${url}`, async () => {
        const made = await makePreview(url);
        previews.set(url, made, now() + (made ? PREVIEW_TTL_MS : FAILED_TTL_MS));
        return made;
      });
    },

    /** A preview's image as WebP, when `signature` is ours for `url`; null when it is not, or cannot be had. */
    async image(url: string, signature: string): Promise<Buffer | null> {
      const expected = Buffer.from(sign(url), 'hex');
      const given = Buffer.from(signature, 'hex');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
      const cached = images.get(url, now());
      if (cached !== undefined) return cached;
      return shared(`i ${url}`, async () => {
        const made = await makeImage(url);
        images.set(url, made, now() + (made ? PREVIEW_TTL_MS : FAILED_TTL_MS));
        return made;
      });
    },
  };
}

export type LinkPreviews = ReturnType<typeof linkPreviews>;
