import { randomUUID } from 'node:crypto';
import { loadSharp } from '../platform/sharp.ts';
import { and, eq, ne } from 'drizzle-orm';
import { AVATAR_SIZES } from '@parley/contract/people';
import type { Db } from '../db/client.ts';
import { images } from '../db/schema.ts';
import { openImage, renderImage } from '../platform/imageUploads.ts';

export { NOT_AN_IMAGE, IMAGE_TOO_LARGE_PIXELS } from '../platform/imageUploads.ts';
/** Uploaded backgrounds are stored at most this wide or high. */
const BACKGROUND_MAX_PX = 1920;

const open = async (file: Buffer) => (await openImage(file)).img;
const render = <T>(p: Promise<T>) => renderImage(p);

/** The decoded working copy an avatar's sizes are cut from: twice the largest size on its short side. */
const AVATAR_WORKING_PX = 2 * Math.max(...AVATAR_SIZES);

/** An avatar at every stored size: square WebP, cropped around what draws the eye. */
export async function avatarVariants(file: Buffer): Promise<Record<'256' | '64', Buffer>> {
  const img = await open(file);
  // Decoded once and small: a JPEG is read at a fraction of its size (libjpeg's shrink-on-load),
  // where each size decoding the full photo took most of the time.
  const { data, info } = await render(
    img
      .resize(AVATAR_WORKING_PX, AVATAR_WORKING_PX, { fit: 'outside', withoutEnlargement: true })
      .raw()
      .toBuffer({ resolveWithObject: true }),
  );
  const sharp = await loadSharp();
  const raw = { raw: { width: info.width, height: info.height, channels: info.channels } };
  const [big, small] = await Promise.all(
    AVATAR_SIZES.map((px) => sharp(data, raw).resize(px, px, { fit: 'cover', position: 'attention' }).webp({ quality: 82 }).toBuffer()),
  );
  return { '256': big!, '64': small! };
}

export async function backgroundVariant(file: Buffer): Promise<Buffer> {
  const img = await open(file);
  return render(
    img.resize(BACKGROUND_MAX_PX, BACKGROUND_MAX_PX, { fit: 'inside', withoutEnlargement: true }).webp({ quality: 78 }).toBuffer(),
  );
}

export const avatarUrl = (id: string, size: '256' | '64' = '256') => `/api/images/${id}-${size}.webp`;

/** Stored images: avatars (both sizes) and uploaded backgrounds, in PostgreSQL so every replica serves them. */
export function imageStore(db: Db) {
  return {
    /** Stores a new avatar and drops the owner's previous ones; answers its id. */
    async saveAvatar(ownerId: string, variants: Record<'256' | '64', Buffer>): Promise<string> {
      const id = randomUUID();
      await db.transaction(async (tx) => {
        await tx.delete(images).where(and(eq(images.ownerId, ownerId), eq(images.purpose, 'avatar')));
        await tx
          .insert(images)
          .values(
            (['256', '64'] as const).map((variant) => ({ id, variant, ownerId, purpose: 'avatar' as const, bytes: variants[variant] })),
          );
      });
      return id;
    },
    async saveBackground(ownerId: string, bytes: Buffer, keep: number): Promise<string> {
      const id = randomUUID();
      await db.insert(images).values({ id, variant: 'bg', ownerId, purpose: 'background', bytes });
      const mine = await this.backgroundsOf(ownerId);
      for (const old of mine.slice(keep)) await db.delete(images).where(and(eq(images.id, old), ne(images.id, id)));
      return id;
    },
    /** The owner's uploaded backgrounds, newest first. */
    async backgroundsOf(ownerId: string): Promise<string[]> {
      const rows = await db
        .select({ id: images.id, at: images.createdAt })
        .from(images)
        .where(and(eq(images.ownerId, ownerId), eq(images.purpose, 'background')));
      return rows.sort((a, b) => b.at.getTime() - a.at.getTime()).map((r) => r.id);
    },
    async read(id: string, variant: '256' | '64' | 'bg'): Promise<Buffer | undefined> {
      const [row] = await db
        .select({ bytes: images.bytes })
        .from(images)
        .where(and(eq(images.id, id), eq(images.variant, variant)))
        .limit(1);
      return row?.bytes;
    },
  };
}
export type ImageStore = ReturnType<typeof imageStore>;
