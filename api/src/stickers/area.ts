import Router from '@koa/router';
import { and, eq, inArray } from 'drizzle-orm';
import {
  GIF_RESULTS,
  GIF_SEARCHES_PER_MINUTE,
  gifIdSchema,
  gifSearchSchema,
  MEDIA_ERR,
  STICKER_PACKS,
  STICKER_PX,
  stickerUrl,
  type GifSearch,
  type StickerList,
  type StoredMedia,
} from '@parley/contract/media';
import { ownedItems } from '../db/schema.ts';
import type { Db } from '../db/client.ts';
import type { AppDeps, AuthState } from '../deps.ts';
import { DomainError, HttpError, parse } from '../platform/errors.ts';
import { takeOrRefuse } from '../platform/rateLimit.ts';
import { gifLibrary, type GifLibrary } from './gifLibrary.ts';
import { gifProvider } from './gifProvider.ts';

export type MediaRequest = { sticker?: string | undefined; gif?: string | undefined };

const PAID_ITEMS = STICKER_PACKS.flatMap((p) => (p.itemId ? [p.itemId] : []));

/** The store items (sticker packs) among the paid ones that this user bought. */
async function ownedPacks(db: Db, userId: string): Promise<Set<string>> {
  if (PAID_ITEMS.length === 0) return new Set();
  const rows = await db
    .select({ id: ownedItems.itemId })
    .from(ownedItems)
    .where(and(eq(ownedItems.userId, userId), inArray(ownedItems.itemId, PAID_ITEMS)));
  return new Set(rows.map((r) => r.id));
}

/**
 * Stickers (the packs in the contract: free ones for everyone, sold ones once bought in the store)
 * and the operator's GIF library (GIF_DIR), for the picker, and the check the room core makes of
 * a sticker or GIF message: only ids this sender may use, never an address from the client.
 */
export function createStickers(deps: AppDeps, library: GifLibrary = gifLibrary(deps.cfg.GIF_DIR)) {
  const { GIF_PROVIDER_URL: providerUrl, GIF_PROVIDER_KEY: providerKey } = deps.cfg;
  const provider = providerUrl && providerKey ? gifProvider(providerUrl, providerKey) : undefined;
  const configured = library.configured || provider !== undefined;
  /** One GIF by id: the provider's (asked only when configured) or the library's. */
  const gifOf = (id: string) => (provider?.isProviderId(id) ? provider.get(id) : library.get(id));
  /** The library's matches first, then the provider's; a provider that fails leaves the library's (and is logged). */
  async function searchGifs(q: string | undefined) {
    const local = library.configured ? await library.search(q) : [];
    if (!provider || !q) return local;
    const remote = await provider.search(q).catch((err: unknown) => {
      deps.log.warn({ err }, 'the GIF provider failed a search');
      return [];
    });
    return [...local, ...remote].slice(0, GIF_RESULTS);
  }
  const searches = deps.limiters.create({ keyPrefix: 'gif-search', points: GIF_SEARCHES_PER_MINUTE, durationSeconds: 60 });

  async function resolve(userId: string, m: MediaRequest): Promise<StoredMedia> {
    if (m.sticker !== undefined) {
      const [packId, stickerId] = m.sticker.split('/');
      const pack = STICKER_PACKS.find((p) => p.id === packId);
      const sticker = pack?.stickers.find((s) => s.id === stickerId);
      if (!pack || !sticker) throw new DomainError('invalid', MEDIA_ERR.unknownSticker, 'unknown_sticker');
      if (pack.itemId && !(await ownedPacks(deps.db, userId)).has(pack.itemId))
        throw new DomainError('forbidden', MEDIA_ERR.notOwned, 'not_owned');
      return { kind: 'sticker', id: m.sticker, width: STICKER_PX, height: STICKER_PX, alt: sticker.label };
    }
    const gif = m.gif === undefined ? undefined : await gifOf(m.gif).catch(() => undefined);
    if (!gif) throw new DomainError('invalid', MEDIA_ERR.unknownGif, 'unknown_gif');
    return { kind: 'gif', id: gif.id, width: gif.width, height: gif.height, alt: gif.alt };
  }

  const router = new Router();
  router.get('/stickers', deps.requireUser, async (ctx) => {
    const { user } = ctx.state as AuthState;
    const owned = await ownedPacks(deps.db, user.userId);
    const body: StickerList = {
      packs: STICKER_PACKS.map((p) => ({
        id: p.id,
        name: p.name,
        ...(p.itemId && { itemId: p.itemId }),
        usable: !p.itemId || owned.has(p.itemId),
        stickers: p.stickers.map((s) => ({ id: `${p.id}/${s.id}`, label: s.label, url: stickerUrl(`${p.id}/${s.id}`) })),
      })),
    };
    ctx.set('Cache-Control', 'private, no-store');
    ctx.body = body;
  });

  router.get('/gifs', deps.requireUser, async (ctx) => {
    const { user } = ctx.state as AuthState;
    const { q } = parse(gifSearchSchema, ctx.query);
    await takeOrRefuse(searches, user.userId, MEDIA_ERR.tooManySearches);
    const body: GifSearch = { configured, gifs: configured ? await searchGifs(q) : [] };
    ctx.set('Cache-Control', 'private, no-store');
    ctx.body = body;
  });

  // The operator's library is public to signed-in pages' <img> tags, so no token: served as
  // attachments are, never sniffed or run as anything but a picture.
  router.get('/gifs/file/:name', async (ctx) => {
    const name = String(ctx.params.name ?? '');
    const id = parse(gifIdSchema, name.endsWith('.gif') ? name.slice(0, -4) : '');
    const bytes = provider?.isProviderId(id) ? await provider.file(id).catch(() => undefined) : await library.file(id);
    if (!bytes) throw new HttpError(404, MEDIA_ERR.unknownGif, 'not_found');
    ctx.type = 'image/gif';
    ctx.set('Cache-Control', 'public, max-age=3600');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Content-Security-Policy', "default-src 'none'; sandbox");
    ctx.set('Content-Disposition', 'inline');
    ctx.body = bytes;
  });

  return { routes: router, resolve, library };
}
