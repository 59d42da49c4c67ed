import { z } from 'zod';
import { text } from './text.ts';

/**
 * Stickers and GIFs, sent as messages in stored conversations (direct messages and group rooms).
 * A message names a sticker or a GIF by id; the server checks the sender may use it and builds
 * its address itself, so a message never carries an address a client chose.
 */

/** A sticker pack Parley ships: free for everyone, or sold in the store (`itemId`, bought like an emoji pack). */
export type StickerPackDef = { id: string; name: string; itemId?: string; stickers: Array<{ id: string; label: string }> };

export const STICKER_PACKS: readonly StickerPackDef[] = [
  {
    id: 'hello',
    name: 'Hello',
    stickers: [
      { id: 'wave', label: 'Waving hand' },
      { id: 'heart', label: 'Beating heart' },
      { id: 'star', label: 'Spinning star' },
    ],
  },
  {
    id: 'party',
    name: 'Party',
    itemId: 'stickers-party',
    stickers: [
      { id: 'balloon', label: 'Bobbing balloon' },
      { id: 'confetti', label: 'Falling confetti' },
      { id: 'cake', label: 'Birthday cake' },
    ],
  },
];

const SLUG = /^[a-z0-9-]{1,40}$/;
/** `pack/sticker`, e.g. `hello/wave`. */
export const stickerIdSchema = text().regex(/^[a-z0-9-]{1,40}\/[a-z0-9-]{1,40}$/, 'Unknown sticker');
/** A GIF of the server's library: its file name without `.gif`. */
export const GIF_ID = /^[a-z0-9][a-z0-9_-]{0,79}$/;
/** A GIF of the configured provider (GIF_PROVIDER_URL): `p.` and the provider's id. */
export const PROVIDER_GIF_ID = /^p\.[A-Za-z0-9]{1,40}$/;
export const gifIdSchema = text().refine((id) => GIF_ID.test(id) || PROVIDER_GIF_ID.test(id), 'Unknown GIF');

export const stickerUrl = (id: string) => `/stickers/${id}.webp`;
export const gifUrl = (id: string) => `/api/gifs/file/${id}.gif`;

/** A sticker's size as shipped (square). */
export const STICKER_PX = 160;

/** What a message carries: laid out before it is fetched, its alt text from the server. */
export type MessageMedia = { kind: 'sticker' | 'gif'; id: string; url: string; width: number; height: number; alt: string };
export const messageMediaCheck = z.object({
  kind: z.enum(['sticker', 'gif']),
  id: z.string(),
  url: z.string(),
  width: z.number(),
  height: z.number(),
  alt: z.string(),
});
/** Built from a stored kind and id only. */
export const mediaUrl = (kind: MessageMedia['kind'], id: string) => (kind === 'sticker' ? stickerUrl(id) : gifUrl(id));

/** GET /api/stickers: every pack, each saying whether this person may send from it. */
export type StickerPackView = {
  id: string;
  name: string;
  /** The store item that sells it; absent for a free pack. */
  itemId?: string;
  usable: boolean;
  stickers: Array<{ id: string; label: string; url: string }>;
};
export type StickerList = { packs: StickerPackView[] };

/** GET /api/gifs?q=: the library's GIFs whose tags match, or every one (newest files first) without q. */
export const gifSearchSchema = z.strictObject({
  q: text().max(40, 'Search at most 40 characters').optional(),
});
export type GifResult = { id: string; url: string; width: number; height: number; alt: string };
/** `configured` false: this server has no GIF library (GIF_DIR unset). */
export type GifSearch = { configured: boolean; gifs: GifResult[] };
/** At most this many GIFs per answer. */
export const GIF_RESULTS = 40;
/** Searches a person may run a minute (typing in the picker searches as they pause). */
export const GIF_SEARCHES_PER_MINUTE = 40;

export const MEDIA_ERR = {
  notHere: 'Stickers and GIFs can be sent in group rooms and direct messages only.',
  unknownSticker: 'That sticker is not one Parley has.',
  notOwned: 'That sticker pack is sold in the store. Get it there to send its stickers.',
  unknownGif: 'That GIF is not in the library of this server.',
  oneThing: 'Send a sticker, a GIF or a picture on its own.',
  tooManySearches: 'Too many GIF searches. Wait a moment and try again.',
} as const;

export const isSlug = (s: string) => SLUG.test(s);

/** What a message keeps of a checked sticker or GIF; the address is built again when it is read. */
export type StoredMedia = Omit<MessageMedia, 'url'>;
export const mediaView = (m: StoredMedia): MessageMedia => ({ ...m, url: mediaUrl(m.kind, m.id) });
