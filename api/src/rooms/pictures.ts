import { ATTACHMENT_ERR, PICTURE_FULL_PX, PICTURE_MAX_SIDE, PICTURE_THUMB_PX } from '@parley/contract/attachments';
import { DomainError } from '../platform/errors.ts';
import { openImage, renderImage } from '../platform/imageUploads.ts';

const notAPicture = () => new DomainError('invalid', ATTACHMENT_ERR.notAPicture, 'not_an_image');

export type Picture = { full: Buffer; thumb: Buffer; width: number; height: number };

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
      .webp({ quality: 80 })
      .toBuffer({ resolveWithObject: true }),
    notAPicture,
  );
  // Cut from the re-encoded picture: the upload is decoded once.
  const thumb = await renderImage(
    openImage(full, notAPicture).then(({ img: small }) =>
      small.resize(PICTURE_THUMB_PX, PICTURE_THUMB_PX, { fit: 'inside', withoutEnlargement: true }).webp({ quality: 70 }).toBuffer(),
    ),
    notAPicture,
  );
  return { full, thumb, width: info.width, height: info.height };
}
