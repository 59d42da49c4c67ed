import { ATTACHMENT_ERR, PICTURE_FULL_PX, PICTURE_MAX_SIDE, PICTURE_THUMB_PX } from '@parley/contract/attachments';
import { DomainError } from '../platform/errors.ts';
import { availableParallelism } from 'node:os';
import { openImage, renderImage } from '../platform/imageUploads.ts';

const notAPicture = () => new DomainError('invalid', ATTACHMENT_ERR.notAPicture, 'not_an_image');

/**
 * The WebP encoder's settings. Effort 0 (libwebp's fastest method) encodes a 2048 px photo about
 * three times faster than the default 4, for files within a few percent of the size
 * (bench:pictures): the encoding is most of the time a picture takes to reach the other side.
 */
export const PICTURE_WEBP = { full: { quality: 80, effort: 0 }, thumb: { quality: 70, effort: 0 } } as const;

/** A picture whose thumbnail is made: the message can go out; the full picture is still being encoded. */
export type PreparedPicture = {
  thumb: Buffer;
  /** The full picture's size (upright, within PICTURE_FULL_PX), known before it is encoded. */
  width: number;
  height: number;
  full: Promise<Buffer>;
};

/**
 * Full pictures encoded at once: fewer than the cores. A full encode starts only while no
 * thumbnail is being made: in a burst (ten photos at once) every thumbnail, which is what the
 * conversation shows, goes first, and the full pictures, which open on a tap, follow.
 */
const FULL_AT_ONCE = Math.max(1, availableParallelism() - 1);
/** A full picture waits for thumbnails at most this long: a steady stream of uploads does not hold it back for ever. */
const FULL_WAITS_AT_MOST_MS = 2000;
let fullRunning = 0;
let thumbsMaking = 0;
const fullWaiting: Array<{ go(): void; since: number }> = [];
const startFull = () => {
  while (fullRunning < FULL_AT_ONCE && fullWaiting.length > 0) {
    if (thumbsMaking > 0 && performance.now() - fullWaiting[0]!.since < FULL_WAITS_AT_MOST_MS) return;
    fullRunning++;
    fullWaiting.shift()!.go();
  }
};
async function inFullLane<T>(job: () => Promise<T>): Promise<T> {
  await new Promise<void>((go) => {
    fullWaiting.push({ go, since: performance.now() });
    setTimeout(startFull, FULL_WAITS_AT_MOST_MS).unref();
    startFull();
  });
  try {
    return await job();
  } finally {
    fullRunning--;
    startFull();
  }
}
async function makingThumbnail<T>(job: () => Promise<T>): Promise<T> {
  thumbsMaking++;
  try {
    return await job();
  } finally {
    thumbsMaking--;
    startFull();
  }
}

/** The size of a `w` × `h` picture fitted inside a `max` square, never enlarged (sharp's `fit: inside`). */
function fittedInside(w: number, h: number, max: number) {
  if (w <= max && h <= max) return { width: w, height: h };
  return w >= h
    ? { width: max, height: Math.max(1, Math.round((h * max) / w)) }
    : { width: Math.max(1, Math.round((w * max) / h)), height: max };
}

/**
 * A chat picture as it is kept: decoded (avatars' checks: formats by content, a pixel limit against
 * decompression bombs) and encoded again as WebP, upright and without any metadata (EXIF, GPS),
 * at most PICTURE_FULL_PX on its longer side, with a thumbnail. Nothing of the file's own bytes
 * survives the re-encoding, so what rode along in it (a script, an archive) does not either.
 *
 * The thumbnail is made first (a JPEG decodes at a fraction of its size for it: a tenth of the full
 * encode's time), and is what the conversation shows; the full picture, which opens on a tap, follows
 * in a lane of its own. Ten photos sent at once are then ten thumbnails on the way, not ten full
 * encodes before any of them.
 */
export async function preparePicture(file: Buffer): Promise<PreparedPicture> {
  const { img, upright } = await openImage(file, notAPicture);
  if (upright.width > PICTURE_MAX_SIDE || upright.height > PICTURE_MAX_SIDE)
    throw new DomainError('invalid', ATTACHMENT_ERR.pictureTooWide, 'image_too_large');
  const thumb = await makingThumbnail(() =>
    renderImage(
      img
        .clone()
        .resize(PICTURE_THUMB_PX, PICTURE_THUMB_PX, { fit: 'inside', withoutEnlargement: true })
        .webp(PICTURE_WEBP.thumb)
        .toBuffer(),
      notAPicture,
    ),
  );
  const full = inFullLane(() =>
    img.resize(PICTURE_FULL_PX, PICTURE_FULL_PX, { fit: 'inside', withoutEnlargement: true }).webp(PICTURE_WEBP.full).toBuffer(),
  );
  // Whoever stores it handles a failure; until then it must not count as unhandled.
  full.catch(() => undefined);
  return { thumb, full, ...fittedInside(upright.width, upright.height, PICTURE_FULL_PX) };
}
