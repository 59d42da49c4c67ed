import { z } from 'zod';
import { text } from './text.ts';

/** What the store sells; everything is bought once, except gifts of gold. */
export const ITEM_KINDS = ['emojiPack', 'stickerPack', 'flair', 'frame', 'chatBackground', 'nameColour'] as const;
export type ItemKind = (typeof ITEM_KINDS)[number];

export const ITEM_KIND_LABELS: Record<ItemKind, string> = {
  emojiPack: 'Emoji packs',
  stickerPack: 'Sticker packs',
  flair: 'Profile flair',
  frame: 'Avatar frames',
  chatBackground: 'Chat backgrounds',
  nameColour: 'Name colours',
};

/** A custom emoji's name, written `:name:` in a message. */
export const EMOJI_NAME = /^[a-z0-9_]{2,32}$/;
/** Finds `:name:` shortcodes in a message. */
export const SHORTCODE = /:([a-z0-9_]{2,32}):/g;
/** The store's packs name their emoji with this prefix; uploads may not, so a name says where its image is. */
export const PACK_EMOJI_PREFIX = 'parley_';
/**
 * Where an emoji's image is served: a pack's with the app, an upload's by the API. Built from the
 * name alone, never from anything a message carries.
 */
export const emojiImagePath = (name: string) =>
  name.startsWith(PACK_EMOJI_PREFIX) ? `/emoji/${name}.svg` : `/api/shop/emoji/custom/${name}.webp`;

/** Uploading one's own emoji (a premium perk): PNG, WebP or GIF up to 256 KB, stored as a 64 px WebP. */
export const CUSTOM_EMOJI_TYPES = ['image/png', 'image/webp', 'image/gif'] as const;
export const CUSTOM_EMOJI_MAX_BYTES = 256 * 1024;
export const CUSTOM_EMOJI_PX = 64;
/** Custom emoji one member may have at once. */
export const CUSTOM_EMOJI_PER_USER = 30;
/** The pack name uploads are listed under in the picker. */
export const UPLOADED_PACK = 'Your emoji';

/** POST /api/shop/emoji/custom?name=: the name it is written with, `:like_this:`. */
export const customEmojiNameSchema = z.strictObject({
  name: text()
    .regex(EMOJI_NAME, 'An emoji name is 2 to 32 lower-case letters, digits or underscores, like like_this')
    .refine((n) => !n.startsWith(PACK_EMOJI_PREFIX), `Names starting with ${PACK_EMOJI_PREFIX} belong to the store's packs`),
});
export type CustomEmojiName = z.infer<typeof customEmojiNameSchema>;
/** GET /api/shop/emoji/custom: the member's uploads, and how many they may have. */
export type CustomEmojiList = { emoji: OwnedEmoji[]; limit: number; allowed: boolean };

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
  premiumOnly: 'Uploading your own emoji is a Premium perk. Upgrade to Plus or Pro to upload custom emoji.',
  notAnEmojiImage: 'That file is not an image Parley can use as an emoji. Use a PNG, WebP or GIF.',
  emojiTooLarge: 'That file is larger than 256 KB. Choose a smaller image.',
  emojiNameTaken: 'That emoji name is taken. Choose another.',
  emojiLimit: `You have ${CUSTOM_EMOJI_PER_USER} custom emoji already. Delete one to upload another.`,
  emojiNotFound: 'You have no custom emoji by that name.',
  uploadRateLimited: 'Too many uploads. Try again later.',
} as const;

export const shopEvents = {
  /** Server → the user's sockets: their gold changed (a purchase in another tab, a gift). */
  goldChanged: 'shop:goldChanged',
} as const;

/** shop:goldChanged's payload: the gold now, when the change that sent it knows it. */
export type GoldChanged = { gold?: number };
