import type { MessageMedia } from '@parley/contract/media';
import { useLingui } from '@lingui/react/macro';
import { mediaAlt } from './stickerWords';

/** Longest side a GIF is shown at in a message; stickers keep their own small size. */
const GIF_MAX_PX = 240;

/** A sticker or GIF in a message: laid out at its size before it loads, named for screen readers. */
export function MediaImage({ media }: { media: MessageMedia }) {
  const { i18n } = useLingui();
  const scale = media.kind === 'gif' ? Math.min(1, GIF_MAX_PX / Math.max(media.width, media.height)) : 0.75;
  const width = Math.max(1, Math.round(media.width * scale));
  const height = Math.max(1, Math.round(media.height * scale));
  return (
    <img
      src={media.url}
      alt={mediaAlt(i18n, media)}
      width={width}
      height={height}
      loading="lazy"
      draggable={false}
      data-testid={media.kind === 'sticker' ? 'message-sticker' : 'message-gif'}
      className={`block max-w-full ${media.kind === 'gif' ? 'rounded-lg' : ''}`}
      style={{ aspectRatio: `${media.width} / ${media.height}` }}
    />
  );
}
