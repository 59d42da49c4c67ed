import {
  emojiImagePath,
  ITEM_KIND_LABELS,
  SHOP_ERR,
  UPLOADED_PACK,
  type GiftAnswer,
  type GiftRequest,
  type ItemQuery,
  type OwnedEmoji,
  type PurchaseAnswer,
  type PurchaseRequest,
  type StoreItem,
} from '@parley/contract/shop';
import { DomainError } from '../platform/errors.ts';
import type { ItemRow, ShopStore } from './store.ts';

const notEnoughGold = () => new DomainError('conflict', SHOP_ERR.notEnoughGold, 'not_enough_gold');
const alreadyOwned = () => new DomainError('conflict', SHOP_ERR.alreadyOwned, 'already_owned');

export type ShopDeps = {
  store: ShopStore;
  /** Told after a commit that gave a user an emoji pack: their emoji are loaded again. */
  emojiChanged(userId: string): void;
  /** Told after a commit that changed a user's gold (with the gold now, when known). */
  goldChanged(userId: string, gold?: number): void;
};

/** Case-insensitive search over an item's name, description and category. O(items). */
function matches(item: ItemRow, q: ItemQuery): boolean {
  if (q.kind && item.kind !== q.kind) return false;
  const words = (q.q ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  const hay = `${item.name} ${item.description} ${ITEM_KIND_LABELS[item.kind]} ${item.emoji.join(' ')}`.toLowerCase();
  return words.every((w) => hay.includes(w));
}

/**
 * The store: items bought with gold, and gifts of gold. Each purchase or gift is one database call
 * under the caller's idempotency key: gold never goes below zero, an item is owned once, and a
 * retried request is answered with the first one's result.
 */
export function shopService(deps: ShopDeps) {
  const { store } = deps;
  let catalogue: Promise<ItemRow[]> | undefined;
  // Seeded by a migration and never changed at runtime: read once per process.
  const items = () => (catalogue ??= store.items());

  return {
    async items(userId: string, q: ItemQuery): Promise<StoreItem[]> {
      const [all, owned] = await Promise.all([items(), store.ownedIds(userId)]);
      return all
        .filter((i) => matches(i, q))
        .map((i) => ({
          id: i.id,
          name: i.name,
          kind: i.kind,
          price: i.price,
          description: i.description,
          imageUrl: i.imageUrl,
          emoji: i.emoji,
          owned: owned.has(i.id),
        }));
    },

    /** The picker's emoji: the user's packs', then their uploads. */
    async ownedEmoji(userId: string): Promise<OwnedEmoji[]> {
      const [packs, uploads] = await Promise.all([store.ownedEmoji(userId), store.customEmojiNames(userId)]);
      return [...packs, { pack: UPLOADED_PACK, emoji: uploads }].flatMap((p) =>
        p.emoji.map((name) => ({ name, url: emojiImagePath(name), pack: p.pack })),
      );
    },

    async buy(userId: string, r: PurchaseRequest): Promise<PurchaseAnswer> {
      const item = (await items()).find((i) => i.id === r.itemId);
      if (!item) throw new DomainError('not_found', SHOP_ERR.itemNotFound, 'item_not_found');
      // A retry answers the first request's result, whatever it was.
      const result = await store.buy({ userId, idempotencyKey: r.idempotencyKey, itemId: item.id, price: item.price });
      if (result.itemId !== r.itemId)
        throw new DomainError('conflict', 'This purchase key was used for another item.', 'idempotency_key_reused');
      if (result.outcome === 'not_enough_gold') throw notEnoughGold();
      if (result.outcome === 'already_owned') throw alreadyOwned();
      if (result.fresh) {
        deps.goldChanged(userId, result.goldAfter);
        if (item.kind === 'emojiPack') deps.emojiChanged(userId);
      }
      return { itemId: result.itemId, gold: result.goldAfter };
    },

    /** Sends gold to another user (a gift to a broadcaster): the same rules as a purchase. */
    async gift(fromUserId: string, g: GiftRequest): Promise<GiftAnswer> {
      if (g.toUserId === fromUserId) throw new DomainError('invalid', SHOP_ERR.giftToSelf, 'gift_to_self');
      const result = await store.gift({ fromUserId, ...g });
      if (!result) throw new DomainError('not_found', SHOP_ERR.recipientNotFound, 'recipient_not_found');
      if (result.toUserId !== g.toUserId || result.amount !== g.amount)
        throw new DomainError('conflict', 'This gift key was used for another gift.', 'idempotency_key_reused');
      if (result.outcome === 'not_enough_gold') throw notEnoughGold();
      if (result.fresh) {
        deps.goldChanged(fromUserId, result.goldAfter);
        deps.goldChanged(g.toUserId);
      }
      return { gold: result.goldAfter };
    },
  };
}

export type ShopService = ReturnType<typeof shopService>;
