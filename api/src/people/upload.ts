import type { Context } from 'koa';
import { IMAGE_MAX_BYTES, IMAGE_TYPES } from '@parley/contract/people';
import { HttpError } from '../platform/errors.ts';
import { NOT_AN_IMAGE } from './images.ts';

export const IMAGE_TOO_LARGE = 'That file is larger than 10 MB. Choose a smaller photo.';
/** A too-large upload is read to its end (so the client sees the 413) up to this much; beyond, the connection is cut. */
const DRAIN_MAX_BYTES = 64 * 1024 * 1024;

/**
 * Reads an image upload sent as the raw request body (its Content-Type one of IMAGE_TYPES), at
 * most IMAGE_MAX_BYTES: larger answers 413, another type or an empty body 400.
 */
export async function readImageUpload(ctx: Context): Promise<Buffer> {
  const type = (ctx.get('content-type').split(';')[0] ?? '').trim().toLowerCase();
  if (!(IMAGE_TYPES as readonly string[]).includes(type)) throw new HttpError(400, NOT_AN_IMAGE, 'not_an_image');
  const declared = Number(ctx.get('content-length') || 0);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > DRAIN_MAX_BYTES) {
      ctx.req.destroy();
      break;
    }
    if (size <= IMAGE_MAX_BYTES && declared <= IMAGE_MAX_BYTES) chunks.push(chunk);
  }
  if (size > IMAGE_MAX_BYTES || declared > IMAGE_MAX_BYTES) throw new HttpError(413, IMAGE_TOO_LARGE, 'payload_too_large');
  if (size === 0) throw new HttpError(400, NOT_AN_IMAGE, 'not_an_image');
  return Buffer.concat(chunks, size);
}
