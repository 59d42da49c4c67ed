import type { Context } from 'koa';
import { HttpError } from './errors.ts';

/** A too-large upload is read to its end (so the client sees the answer) up to this much; beyond, the connection is cut. */
const DRAIN_MAX_BYTES = 64 * 1024 * 1024;

export type UploadRules = {
  /** Content-Types accepted (lower case, without parameters). */
  types: readonly string[];
  maxBytes: number;
  /** Said for another type or an empty body (400). */
  wrongType: string;
  /** Said past maxBytes, with this status. */
  tooLarge: string;
  tooLargeStatus: 400 | 413;
};

/**
 * Reads a file sent as the raw request body: one of `types`, at most `maxBytes` (by its declared
 * length and by what arrived). Nothing past the limit is kept in memory.
 */
export async function readUpload(ctx: Context, rules: UploadRules): Promise<Buffer> {
  const type = (ctx.get('content-type').split(';')[0] ?? '').trim().toLowerCase();
  if (!rules.types.includes(type)) throw new HttpError(400, rules.wrongType, 'not_an_image');
  const declared = Number(ctx.get('content-length') || 0);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > DRAIN_MAX_BYTES) {
      ctx.req.destroy();
      break;
    }
    if (size <= rules.maxBytes && declared <= rules.maxBytes) chunks.push(chunk);
  }
  if (size > rules.maxBytes || declared > rules.maxBytes)
    throw new HttpError(rules.tooLargeStatus, rules.tooLarge, rules.tooLargeStatus === 413 ? 'payload_too_large' : 'file_too_large');
  if (size === 0) throw new HttpError(400, rules.wrongType, 'not_an_image');
  return Buffer.concat(chunks, size);
}
