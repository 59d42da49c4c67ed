import { createContext, useContext, useEffect, useState } from 'react';
import type { GifSearch, StickerList } from '@parley/contract/media';
import { attachmentObjectUrl } from '../../realtime/attachmentCache';

/**
 * What a conversation's pictures and voice messages need of the page: how to fetch a file as a
 * signed-in member, and whose pictures the nudity guard hides until tapped. A conversation without
 * it (a 1:1 chat with a stranger, a stream's chat) shows and offers none.
 */
export type ConversationMedia = {
  /** The file at a message's attachment URL (members only: the app's signed-in fetch). */
  load(url: string): Promise<Blob>;
  /** Pictures from this sender are blurred until tapped (the nudity guard is on and they are not a friend). */
  guarded(senderId: string): boolean;
  /** The sticker packs, each saying whether this person may send from it (asked each time the picker opens). */
  stickers(): Promise<StickerList>;
  /** The server's GIF library searched by tag (every GIF for an empty query). */
  searchGifs(q: string): Promise<GifSearch>;
};

export const MediaContext = createContext<ConversationMedia | null>(null);
export const useConversationMedia = () => useContext(MediaContext);

/** A file of the conversation as an object URL once loaded (`when` false: not yet asked for); 'failed' when it could not be. */
export function useAttachmentFile(url: string | undefined, when = true): string | 'failed' | null {
  const media = useConversationMedia();
  const [loaded, setLoaded] = useState<{ url: string; file: string } | null>(null);
  useEffect(() => {
    if (!url || !media || !when) return;
    let live = true;
    attachmentObjectUrl(url, media.load).then(
      (file) => live && setLoaded({ url, file }),
      () => live && setLoaded({ url, file: 'failed' }),
    );
    return () => {
      live = false;
    };
  }, [url, media, when]);
  return loaded && loaded.url === url ? loaded.file : null;
}

/** m:ss of a length in milliseconds. */
export function clock(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}
