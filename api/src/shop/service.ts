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
import type { ItemRow, PurchaseRow, ShopStore } from './store.ts';

/** Rolls a purchase back when its idempotency key turns out to be used already. */
class KeyUsed extends Error {}

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
 * The store: items bought with gold, and gifts of gold. Each purchase or gift is one transaction
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
      let settled: { outcome: PurchaseRow['outcome']; gold: number } | undefined;
      try {
        settled = await store.db.transaction(async (tx) => {
          let outcome: PurchaseRow['outcome'] = 'bought';
          let gold: number | undefined;
          if (!(await store.own(tx, userId, item.id))) outcome = 'already_owned';
          else if ((gold = await store.debit(tx, userId, item.price)) === undefined) {
            outcome = 'not_enough_gold';
            await store.disown(tx, userId, item.id);
          }
          gold ??= await store.gold(tx, userId);
          // Recorded last, in the same transaction: a request with a key already used rolls all of this back.
          if (!(await store.recordPurchase(tx, { userId, idempotencyKey: r.idempotencyKey, itemId: item.id, outcome, goldAfter: gold })))
            throw new KeyUsed();
          return { outcome, gold };
        });
      } catch (err) {
        if (!(err instanceof KeyUsed)) throw err;
      }
      // A retry: the first request's result, whatever it was.
      const result = settled
        ? { ...settled, itemId: item.id }
        : await store.purchase(userId, r.idempotencyKey).then((p) => p && { outcome: p.outcome, gold: p.goldAfter, itemId: p.itemId });
      if (!result) throw new Error('purchase missing after its key was found used');
      if (result.itemId !== r.itemId)
        throw new DomainError('conflict', 'This purchase key was used for another item.', 'idempotency_key_reused');
      if (result.outcome === 'not_enough_gold') throw notEnoughGold();
      if (result.outcome === 'already_owned') throw alreadyOwned();
      if (settled) {
        deps.goldChanged(userId, result.gold);
        if (item.kind === 'emojiPack') deps.emojiChanged(userId);
      }
      return { itemId: result.itemId, gold: result.gold };
    },

    /** Sends gold to another user (a gift to a broadcaster): the same rules as a purchase. */
    async gift(fromUserId: string, g: GiftRequest): Promise<GiftAnswer> {
      if (g.toUserId === fromUserId) throw new DomainError('invalid', SHOP_ERR.giftToSelf, 'gift_to_self');
      const settled = await store.db.transaction(async (tx) => {
        if (!(await store.userExists(tx, g.toUserId)))
          throw new DomainError('not_found', SHOP_ERR.recipientNotFound, 'recipient_not_found');
        if (!(await store.claimGift(tx, { fromUserId, ...g }))) return undefined;
        await store.lockWallets(tx, [fromUserId, g.toUserId]);
        let gold = await store.debit(tx, fromUserId, g.amount);
        const outcome = gold === undefined ? 'not_enough_gold' : 'sent';
        if (outcome === 'sent') await store.credit(tx, g.toUserId, g.amount);
        gold ??= await store.gold(tx, fromUserId);
        await store.settleGift(tx, fromUserId, g.idempotencyKey, outcome, gold);
        return { outcome, gold, toUserId: g.toUserId, amount: g.amount };
      });
      const result = settled ?? (await store.gift(fromUserId, g.idempotencyKey).then((x) => x && { ...x, gold: x.goldAfter }));
      if (!result) throw new Error('gift missing after its key was claimed');
      if (result.toUserId !== g.toUserId || result.amount !== g.amount)
        throw new DomainError('conflict', 'This gift key was used for another gift.', 'idempotency_key_reused');
      if (result.outcome === 'not_enough_gold') throw notEnoughGold();
      if (settled) {
        deps.goldChanged(fromUserId, result.gold);
        deps.goldChanged(g.toUserId);
      }
      return { gold: result.gold };
    },
  };
}

export type ShopService = ReturnType<typeof shopService>;
