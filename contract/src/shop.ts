import { z } from 'zod';
import { text } from './text.ts';

/** What the store sells; everything is bought once, except gifts of gold. */
export const ITEM_KINDS = ['emojiPack', 'flair', 'frame', 'chatBackground', 'nameColour'] as const;
export type ItemKind = (typeof ITEM_KINDS)[number];

export const ITEM_KIND_LABELS: Record<ItemKind, string> = {
  emojiPack: 'Emoji packs',
  flair: 'Profile flair',
  frame: 'Avatar frames',
  chatBackground: 'Chat backgrounds',
  nameColour: 'Name colours',
};

/** A custom emoji's name, written `:name:` in a message. */
export const EMOJI_NAME = /^[a-z0-9_]{2,32}$/;
/** Finds `:name:` shortcodes in a message. */
export const SHORTCODE = /:([a-z0-9_]{2,32}):/g;
/** Where an emoji's image is served. */
export const emojiImagePath = (name: string) => `/emoji/${name}.svg`;

export type StoreItem = {
  id: string;
  name: string;
  kind: ItemKind;
  price: number;
  description: string;
  imageUrl: string;
  /** Emoji packs: the emoji names they hold. */
  emoji: string[];
  owned: boolean;
};

/** GET /api/shop/items?q=&kind= */
export const itemQuerySchema = z.strictObject({
  q: text().max(40, 'Search at most 40 characters').optional(),
  kind: z.enum(ITEM_KINDS, { message: `kind must be one of ${ITEM_KINDS.join(', ')}` }).optional(),
});
export type ItemQuery = z.infer<typeof itemQuerySchema>;

/** One tap's id: a retried purchase reuses it and is answered with the first result. */
const idempotencyKey = z.uuid({ message: 'idempotencyKey must be a UUID' });

export const purchaseRequestSchema = z.strictObject({
  itemId: text().regex(/^[a-z0-9-]{1,60}$/, 'itemId is not an item'),
  idempotencyKey,
});
export type PurchaseRequest = z.infer<typeof purchaseRequestSchema>;
export type PurchaseAnswer = { itemId: string; gold: number };

/** A gift of gold to another user (a broadcaster in a live stream). */
export const GIFT_MIN = 1;
export const GIFT_MAX = 10_000;
export const giftRequestSchema = z.strictObject({
  toUserId: z.uuid({ message: 'toUserId must be a user id' }),
  amount: z.number().int('amount must be a whole number').min(GIFT_MIN).max(GIFT_MAX, `amount must be at most ${GIFT_MAX}`),
  idempotencyKey,
});
export type GiftRequest = z.infer<typeof giftRequestSchema>;
export type GiftAnswer = { gold: number };

/** GET /api/shop/emoji: the signed-in user's own emoji (their packs'), for the picker. */
export type OwnedEmoji = { name: string; url: string; pack: string };

export const SHOP_ERR = {
  itemNotFound: 'That item is not in the store.',
  notEnoughGold: 'You do not have enough gold for this yet. Complete quests and chat to earn more.',
  alreadyOwned: 'You already own this item.',
  rateLimited: 'Too many purchases at once. Wait a moment and try again.',
  giftToSelf: 'You cannot send gold to yourself.',
  recipientNotFound: 'That person could not be found.',
} as const;

export const shopEvents = {
  /** Server → the user's sockets: their gold changed (a purchase in another tab, a gift). */
  goldChanged: 'shop:goldChanged',
} as const;
