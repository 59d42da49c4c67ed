import Router from '@koa/router';
import { loadSharp } from '../platform/sharp.ts';
import { perksOf } from '@parley/contract/billing';
import {
  CUSTOM_EMOJI_MAX_BYTES,
  CUSTOM_EMOJI_PER_USER,
  CUSTOM_EMOJI_PX,
  CUSTOM_EMOJI_TYPES,
  customEmojiNameSchema,
  EMOJI_NAME,
  emojiImagePath,
  SHOP_ERR,
  UPLOADED_PACK,
  type CustomEmojiList,
  type OwnedEmoji,
} from '@parley/contract/shop';
import type { AppDeps, AuthState } from '../deps.ts';
import { DomainError, HttpError, parse } from '../platform/errors.ts';
import { takeOrRefuse } from '../platform/rateLimit.ts';
import { readUpload } from '../platform/upload.ts';
import type { ShopStore } from './store.ts';

/** Uploads one member may make an hour: a person adds a few, a script is stopped. */
export const EMOJI_UPLOADS_PER_HOUR = 30;
/** Decoding is refused above this many pixels: a small file can claim an enormous image. */
const MAX_INPUT_PIXELS = 16_000_000;
const READABLE = new Set(['png', 'webp', 'gif']);
const FILE = /^([a-z0-9_]{2,32})\.webp$/;

const notAnEmoji = () => new DomainError('invalid', SHOP_ERR.notAnEmojiImage, 'not_an_image');

/** An upload as a square WebP of CUSTOM_EMOJI_PX, its whole picture kept (transparent margins); a GIF's first frame. */
export async function emojiWebp(file: Buffer): Promise<Buffer> {
  const sharp = await loadSharp();
  const img = sharp(file, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' });
  const meta = await img.metadata().catch(() => undefined);
  if (!meta?.format || !READABLE.has(meta.format) || !meta.width || !meta.height) throw notAnEmoji();
  try {
    return await img
      .resize(CUSTOM_EMOJI_PX, CUSTOM_EMOJI_PX, { fit: 'contain', background: { r: 0, g: 0, b: 0, alpha: 0 } })
      .webp({ quality: 85 })
      .toBuffer();
  } catch {
    // The header parsed but the pixels did not (a truncated file).
    throw notAnEmoji();
  }
}

const asOwned = (name: string): OwnedEmoji => ({ name, url: emojiImagePath(name), pack: UPLOADED_PACK });

/**
 * Custom emoji of premium members: uploaded under a name unique across Parley, listed and deleted
 * by their owner only, served to anyone (a message shows them to everyone in its conversation).
 * A deleted name stays its owner's: only they may upload under it again.
 */
export function customEmojiRoutes(deps: AppDeps, store: ShopStore, changed: (userId: string) => void): Router {
  const uploads = deps.limiters.create({ keyPrefix: 'emoji-upload', points: EMOJI_UPLOADS_PER_HOUR, durationSeconds: 3600 });
  const router = new Router({ prefix: '/shop/emoji/custom' });

  router.get('/', deps.requireUser, async (ctx) => {
    const { user } = ctx.state as AuthState;
    const body: CustomEmojiList = {
      emoji: (await store.customEmojiNames(user.userId)).map(asOwned),
      limit: CUSTOM_EMOJI_PER_USER,
      allowed: perksOf(user.premiumUser).customEmojiUpload,
    };
    ctx.body = body;
  });

  router.post('/', deps.requireUser, async (ctx) => {
    const { user } = ctx.state as AuthState;
    if (!perksOf(user.premiumUser).customEmojiUpload) throw new HttpError(403, SHOP_ERR.premiumOnly, 'premium_only');
    const { name } = parse(customEmojiNameSchema, ctx.query);
    await takeOrRefuse(uploads, user.userId, SHOP_ERR.uploadRateLimited);
    const file = await readUpload(ctx, {
      types: CUSTOM_EMOJI_TYPES,
      maxBytes: CUSTOM_EMOJI_MAX_BYTES,
      wrongType: SHOP_ERR.notAnEmojiImage,
      tooLarge: SHOP_ERR.emojiTooLarge,
      tooLargeStatus: 400,
    });
    const outcome = await store.addCustomEmoji(user.userId, name, await emojiWebp(file), CUSTOM_EMOJI_PER_USER);
    if (outcome === 'taken') throw new HttpError(409, SHOP_ERR.emojiNameTaken, 'emoji_name_taken');
    if (outcome === 'full') throw new HttpError(409, SHOP_ERR.emojiLimit, 'emoji_limit');
    changed(user.userId);
    ctx.status = 201;
    ctx.body = asOwned(name);
  });

  router.delete('/:name', deps.requireUser, async (ctx) => {
    const { user } = ctx.state as AuthState;
    const { name } = parse(customEmojiNameSchema, { name: ctx.params.name });
    if (!(await store.deleteCustomEmoji(user.userId, name))) throw new HttpError(404, SHOP_ERR.emojiNotFound, 'emoji_not_found');
    changed(user.userId);
    ctx.status = 204;
  });

  // Shown to everyone in a conversation, as a pack's emoji are: serving needs no sign-in.
  router.get('/:file', async (ctx) => {
    const m = FILE.exec(ctx.params.file ?? '');
    const bytes = m && EMOJI_NAME.test(m[1]!) ? await store.customEmojiImage(m[1]!) : undefined;
    if (!bytes) throw new HttpError(404, 'No such emoji.', 'not_found');
    ctx.type = 'image/webp';
    // Its owner may delete it or upload another picture under the name: cached for an hour, not for ever.
    ctx.set('Cache-Control', 'public, max-age=3600');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.body = bytes;
  });

  return router;
}
