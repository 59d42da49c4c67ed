import { ATTACHMENT_ERR, PICTURE_FULL_PX, PICTURE_MAX_SIDE, PICTURE_THUMB_PX } from '@parley/contract/attachments';
import { DomainError } from '../platform/errors.ts';
import { openImage, renderImage } from '../platform/imageUploads.ts';

const notAPicture = () => new DomainError('invalid', ATTACHMENT_ERR.notAPicture, 'not_an_image');

export type Picture = { full: Buffer; thumb: Buffer; width: number; height: number };

/**
 * The WebP encoder's settings. Effort 0 (libwebp's fastest method) encodes a 2048 px photo about
 * three times faster than the default 4, for files within a few percent of the size
 * (bench:pictures): the encoding is most of the time a picture takes to reach the other side.
 */
export const PICTURE_WEBP = { full: { quality: 80, effort: 0 }, thumb: { quality: 70, effort: 0 } } as const;

/**
 * A chat picture as it is kept: decoded (avatars' checks: formats by content, a pixel limit against
 * decompression bombs) and encoded again as WebP, upright and without any metadata (EXIF, GPS),
 * at most PICTURE_FULL_PX on its longer side, with a thumbnail. Nothing of the file's own bytes
 * survives the re-encoding, so what rode along in it (a script, an archive) does not either.
 */
export async function pictureVariants(file: Buffer): Promise<Picture> {
  const { img, width, height } = await openImage(file, notAPicture);
  if (width > PICTURE_MAX_SIDE || height > PICTURE_MAX_SIDE)
    throw new DomainError('invalid', ATTACHMENT_ERR.pictureTooWide, 'image_too_large');
  const { data: full, info } = await renderImage(
    img
      .resize(PICTURE_FULL_PX, PICTURE_FULL_PX, { fit: 'inside', withoutEnlargement: true })
      .webp(PICTURE_WEBP.full)
      .toBuffer({ resolveWithObject: true }),
    notAPicture,
  );
  // Cut from the re-encoded picture: the upload is decoded once.
  const thumb = await renderImage(
    openImage(full, notAPicture).then(({ img: small }) =>
      small.resize(PICTURE_THUMB_PX, PICTURE_THUMB_PX, { fit: 'inside', withoutEnlargement: true }).webp(PICTURE_WEBP.thumb).toBuffer(),
    ),
    notAPicture,
  );
  return { full, thumb, width: info.width, height: info.height };
}
