import type { Context } from 'koa';
import { IMAGE_MAX_BYTES, IMAGE_TYPES } from '@parley/contract/people';
import { readUpload } from '../platform/upload.ts';
import { NOT_AN_IMAGE } from './images.ts';

export const IMAGE_TOO_LARGE = 'That file is larger than 10 MB. Choose a smaller photo.';

/**
 * Reads an image upload sent as the raw request body (its Content-Type one of IMAGE_TYPES), at
 * most IMAGE_MAX_BYTES: larger answers 413, another type or an empty body 400.
 */
export const readImageUpload = (ctx: Context): Promise<Buffer> =>
  readUpload(ctx, {
    types: IMAGE_TYPES,
    maxBytes: IMAGE_MAX_BYTES,
    wrongType: NOT_AN_IMAGE,
    tooLarge: IMAGE_TOO_LARGE,
    tooLargeStatus: 413,
  });
