import type { Metadata } from 'sharp';
import { loadSharp } from './sharp.ts';
import { DomainError } from './errors.ts';

/**
 * Reading uploaded pictures safely, for every area that takes them (avatars, backgrounds, chat
 * pictures): decoded by sharp within a pixel limit, re-encoded by the caller.
 */

export const NOT_AN_IMAGE = 'That file is not an image Parley can read. Use a JPEG, PNG, WebP or HEIC photo.';
export const IMAGE_TOO_LARGE_PIXELS = 'That image is too large. Use one under 50 megapixels.';
/** Decoding is refused above this many pixels: a small file can claim an enormous image. */
const MAX_INPUT_PIXELS = 50_000_000;
const READABLE = new Set(['jpeg', 'png', 'webp', 'heif']);

const notAnImage = () => new DomainError('invalid', NOT_AN_IMAGE, 'not_an_image');
const tooManyPixels = () => new DomainError('invalid', IMAGE_TOO_LARGE_PIXELS, 'image_too_large');

/**
 * Reads an upload: one of the formats accepted (by its content: sharp sniffs the bytes, never the
 * name or the declared type; SVG, GIF, PDF and the like are refused), and not more pixels than
 * allowed. `refuse` is what an unreadable file is told (an avatar's words, a chat picture's).
 */
export async function openImage(file: Buffer, refuse: () => Error = notAnImage) {
  const sharp = await loadSharp();
  const img = sharp(file, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' });
  let meta: Metadata;
  try {
    meta = await img.metadata();
  } catch (err) {
    // libvips refuses a header claiming more pixels than allowed before reading any of them.
    if (err instanceof Error && /pixel limit/i.test(err.message)) throw tooManyPixels();
    throw refuse();
  }
  if (!meta.format || !READABLE.has(meta.format) || !meta.width || !meta.height) throw refuse();
  if (meta.width * meta.height > MAX_INPUT_PIXELS) throw tooManyPixels();
  // Turned upright by its EXIF orientation; the output carries no metadata (EXIF, GPS, ICC) at all.
  const sideways = (meta.orientation ?? 1) >= 5;
  return {
    img: img.rotate(),
    width: meta.width,
    height: meta.height,
    /** Its size once turned upright. */
    upright: sideways ? { width: meta.height, height: meta.width } : { width: meta.width, height: meta.height },
  };
}

/** Encoding an opened upload: a file whose header parsed but whose pixels did not is refused, not a 500. */
export async function renderImage<T>(p: Promise<T>, refuse: () => Error = notAnImage): Promise<T> {
  try {
    return await p;
  } catch {
    // The header parsed but the pixels did not (a truncated file, or HEVC-coded HEIC this build cannot decode).
    throw refuse();
  }
}
