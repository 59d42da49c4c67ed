import { Fragment, type ReactNode } from 'react';
import { emojiImagePath, SHORTCODE } from '@parley/contract/shop';
import { RevealedText } from './RevealedText';

/**
 * Message text with its custom emoji as images: only the `:shortcodes:` in `verified` (which the
 * server checked the sender owns, or our own for our messages); any other stays text. The image
 * path is built from the name, never taken from the message.
 */
export function EmojiText({ text, verified }: { text: string; verified: ReadonlySet<string> | undefined }) {
  if (!verified || verified.size === 0 || !text.includes(':')) return <RevealedText text={text} />;
  const parts: ReactNode[] = [];
  let at = 0;
  for (const m of text.matchAll(SHORTCODE)) {
    const name = m[1]!;
    if (!verified.has(name)) continue;
    if (m.index > at) parts.push(<RevealedText key={`t${at}`} text={text.slice(at, m.index)} />);
    parts.push(
      <img
        key={`e${m.index}`}
        src={emojiImagePath(name)}
        alt={`:${name}:`}
        title={`:${name}:`}
        width={24}
        height={24}
        className="mx-0.5 inline-block size-6 align-text-bottom"
      />,
    );
    at = m.index + m[0].length;
  }
  if (at < text.length) parts.push(<RevealedText key={`t${at}`} text={text.slice(at)} />);
  return <Fragment>{parts}</Fragment>;
}
