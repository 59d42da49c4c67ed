import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { ItemKind, StoreItem } from '@parley/contract/shop';

/**
 * The store's catalogue is seeded in English on the server; these are its items' words in the
 * interface language. An item added on the server without a line here shows the server's words.
 */
const ITEMS: Record<string, { name: [string, MessageDescriptor]; description: [string, MessageDescriptor] }> = {
  'pack-critters': {
    name: ['Critters', msg`Critters`],
    description: ['A cat, a fox, an owl and a frog to say hello with.', msg`A cat, a fox, an owl and a frog to say hello with.`],
  },
  'pack-weather': {
    name: ['Weather', msg`Weather`],
    description: ['Sun, rain, snow and a rainbow for every mood.', msg`Sun, rain, snow and a rainbow for every mood.`],
  },
  'pack-snacks': {
    name: ['Snacks', msg`Snacks`],
    description: ['A taco, a donut, bubble tea and a cookie to share.', msg`A taco, a donut, bubble tea and a cookie to share.`],
  },
  'flair-sprout': {
    name: ['Sprout flair', msg`Sprout flair`],
    description: ['A little sprout beside your name: new here and growing.', msg`A little sprout beside your name: new here and growing.`],
  },
  'flair-star': { name: ['Star flair', msg`Star flair`], description: ['A star beside your name.', msg`A star beside your name.`] },
  'frame-wave': {
    name: ['Wave frame', msg`Wave frame`],
    description: ['A calm blue ring around your avatar.', msg`A calm blue ring around your avatar.`],
  },
  'frame-gold': {
    name: ['Gold frame', msg`Gold frame`],
    description: ['A gold ring around your avatar.', msg`A gold ring around your avatar.`],
  },
  'bg-mint': {
    name: ['Mint background', msg`Mint background`],
    description: ['A soft mint background for your chats.', msg`A soft mint background for your chats.`],
  },
  'bg-dusk': {
    name: ['Dusk background', msg`Dusk background`],
    description: ['An evening sky behind your chats.', msg`An evening sky behind your chats.`],
  },
  'stickers-party': {
    name: ['Party stickers', msg`Party stickers`],
    description: [
      'A bobbing balloon, falling confetti and a birthday cake, animated.',
      msg`A bobbing balloon, falling confetti and a birthday cake, animated.`,
    ],
  },
  'colour-coral': { name: ['Coral name', msg`Coral name`], description: ['Your name in coral.', msg`Your name in coral.`] },
  'colour-teal': { name: ['Teal name', msg`Teal name`], description: ['Your name in teal.', msg`Your name in teal.`] },
};

/** The server's words, in the interface language when they are still the words seeded. */
const word = (server: string, known: [string, MessageDescriptor] | undefined) => (known && known[0] === server ? i18n._(known[1]) : server);

export const itemName = (item: Pick<StoreItem, 'id' | 'name'>) => word(item.name, ITEMS[item.id]?.name);
export const itemDescription = (item: Pick<StoreItem, 'id' | 'description'>) => word(item.description, ITEMS[item.id]?.description);

const KINDS: Record<ItemKind, MessageDescriptor> = {
  emojiPack: msg`Emoji packs`,
  stickerPack: msg`Sticker packs`,
  flair: msg`Profile flair`,
  frame: msg`Avatar frames`,
  chatBackground: msg`Chat backgrounds`,
  nameColour: msg`Name colours`,
};
/** A category of the store, in the interface language. */
export const kindLabel = (kind: ItemKind) => i18n._(KINDS[kind]);
