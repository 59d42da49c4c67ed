import { Fragment, type ReactNode } from 'react';
import { findLinks } from '@parley/contract/links';
import { Trans, useLingui } from '@lingui/react/macro';
import { EmojiText } from './EmojiText';
import { RevealedText } from './RevealedText';

/**
 * How a conversation treats links: `open`, a link is an anchor (a new tab, no referrer, no
 * standing lent to the site); `guarded` (a chat with a stranger), it stays text with an "Open
 * link" beside it, so nobody lands on a site by a careless tap on a message.
 */
export type LinkMode = 'open' | 'guarded';

/** The rel of every link someone else wrote: no access to our page, no referrer, no ranking. */
export const USER_LINK_REL = 'noopener noreferrer nofollow ugc';

/**
 * Message text with its http(s) links made links (any other scheme stays text), its custom emoji
 * as EmojiText draws them, and hidden characters shown (RevealedText) in links too.
 */
export function LinkedText({
  text,
  verified,
  mode,
  linkClass,
}: {
  text: string;
  verified: ReadonlySet<string> | undefined;
  mode: LinkMode;
  linkClass: string;
}) {
  const links = findLinks(text);
  if (links.length === 0) return <EmojiText text={text} verified={verified} />;
  const parts: ReactNode[] = [];
  let at = 0;
  for (const l of links) {
    if (l.start > at) parts.push(<EmojiText key={`t${at}`} text={text.slice(at, l.start)} verified={verified} />);
    parts.push(
      mode === 'open' ? (
        <a key={`l${l.start}`} href={l.url} target="_blank" rel={USER_LINK_REL} className={`underline ${linkClass}`}>
          <RevealedText text={l.url} />
        </a>
      ) : (
        <GuardedLink key={`l${l.start}`} url={l.url} linkClass={linkClass} />
      ),
    );
    at = l.end;
  }
  if (at < text.length) parts.push(<EmojiText key={`t${at}`} text={text.slice(at)} verified={verified} />);
  return <Fragment>{parts}</Fragment>;
}

/**
 * A stranger's link: its whole address as text, which a tap does not follow, then "Open link",
 * which does (one deliberate tap, the host named for screen readers).
 */
function GuardedLink({ url, linkClass }: { url: string; linkClass: string }) {
  const { t } = useLingui();
  let host = url;
  try {
    host = new URL(url).host;
  } catch {
    // findLinks parsed it already.
  }
  return (
    <>
      <RevealedText text={url} />{' '}
      <a
        href={url}
        target="_blank"
        rel={USER_LINK_REL}
        aria-label={t`Open link to ${host}`}
        className={`inline-block rounded border border-current px-1.5 text-xs font-semibold no-underline ${linkClass}`}
      >
        <Trans>Open link</Trans>
      </a>
    </>
  );
}
