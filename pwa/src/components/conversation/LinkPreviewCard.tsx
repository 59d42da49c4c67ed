import { useEffect, useState } from 'react';
import type { LinkPreview } from '@parley/contract/links';
import { RevealedText } from './RevealedText';
import { USER_LINK_REL } from './LinkedText';

/** Asks the server for a message's link preview (null: none to show); `version` changes when the message is edited. */
export type LoadLinkPreview = (messageId: number, version: number) => Promise<LinkPreview | null>;

/**
 * The preview of a message's first link: the site, title, description and image as the server
 * fetched them (the image comes from our own server, so the site never sees who reads). Nothing is
 * shown until it is there, or when there is nothing to show.
 */
export function LinkPreviewCard({
  messageId,
  version,
  load,
  mine,
}: {
  messageId: number;
  version: number;
  load: LoadLinkPreview;
  mine: boolean;
}) {
  const [preview, setPreview] = useState<LinkPreview | null>(null);
  const [imageFailed, setImageFailed] = useState(false);
  useEffect(() => {
    let live = true;
    load(messageId, version).then(
      (p) => live && setPreview(p),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [messageId, version, load]);
  if (!preview) return null;
  return (
    <a
      href={preview.url}
      target="_blank"
      rel={USER_LINK_REL}
      data-testid="link-preview"
      className={`mt-2 block max-w-sm overflow-hidden rounded-lg border text-start no-underline focus-visible:outline-2 focus-visible:outline-offset-2 ${
        mine
          ? 'border-indigo-300 bg-indigo-800 text-white focus-visible:outline-white'
          : 'border-slate-200 bg-slate-50 text-slate-900 focus-visible:outline-indigo-700'
      }`}
    >
      {preview.image && !imageFailed && (
        <img src={preview.image} alt="" loading="lazy" onError={() => setImageFailed(true)} className="max-h-48 w-full object-cover" />
      )}
      <span className="block p-2">
        <span className={`block text-xs ${mine ? 'text-indigo-100' : 'text-slate-600'}`}>
          <RevealedText text={preview.siteName} />
        </span>
        {preview.title && (
          <span className="line-clamp-2 block font-semibold">
            <RevealedText text={preview.title} />
          </span>
        )}
        {preview.description && (
          <span className={`line-clamp-3 block text-sm ${mine ? 'text-indigo-50' : 'text-slate-700'}`}>
            <RevealedText text={preview.description} />
          </span>
        )}
      </span>
    </a>
  );
}
