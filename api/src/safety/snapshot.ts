import type { Metadata } from 'sharp';
import { loadSharp } from '../platform/sharp.ts';
import { SAFETY_ERR, SNAPSHOT_MAX_SIDE } from '@parley/contract/safety';
import { DomainError } from '../platform/errors.ts';

const notJpeg = () => new DomainError('invalid', SAFETY_ERR.snapshotNotJpeg, 'snapshot_not_jpeg');

/**
 * A report's snapshot as the server keeps it: decoded, and encoded again by the server, so what a
 * moderator's browser opens is a plain JPEG of pixels only (no EXIF, GPS, comments or trailing
 * bytes from the reporter's file). Refuses anything that is not a whole, readable JPEG of at most
 * SNAPSHOT_MAX_SIDE pixels a side.
 */
export async function cleanSnapshot(file: Buffer): Promise<Buffer> {
  const sharp = await loadSharp();
  // Pixels are limited before decoding: a small file can claim an enormous image.
  const img = sharp(file, { limitInputPixels: SNAPSHOT_MAX_SIDE * SNAPSHOT_MAX_SIDE, failOn: 'warning' });
  let meta: Metadata;
  try {
    meta = await img.metadata();
  } catch {
    throw notJpeg();
  }
  if (meta.format !== 'jpeg' || !meta.width || !meta.height) throw notJpeg();
  if (meta.width > SNAPSHOT_MAX_SIDE || meta.height > SNAPSHOT_MAX_SIDE)
    throw new DomainError('invalid', SAFETY_ERR.snapshotTooManyPixels, 'snapshot_too_large');
  try {
    // Turned upright by its EXIF orientation; sharp writes no metadata unless asked to.
    return await img.rotate().jpeg({ quality: 85 }).toBuffer();
  } catch {
    // The header parsed but the pixels did not (a truncated or corrupt file).
    throw notJpeg();
  }
}
