import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { customEmoji, ownedItems, storeItems, users, type goldGifts, type purchases } from '../db/schema.ts';

export type ItemRow = typeof storeItems.$inferSelect;
export type PurchaseRow = typeof purchases.$inferSelect;
export type GiftRow = typeof goldGifts.$inferSelect;
/** A purchase's outcome, and whether this call made it (not a retry of a key used before). */
export type PurchaseResult = { outcome: PurchaseRow['outcome']; goldAfter: number; itemId: string; fresh: boolean };
/** A gift's outcome, and whether this call made it. */
export type GiftResult = { outcome: GiftRow['outcome']; goldAfter: number; toUserId: string; amount: number; fresh: boolean };

/** The shop's rows: the catalogue, what users own, purchases and gifts by idempotency key, and gold. */
export function shopStore(db: Db) {
  return {
    async items(): Promise<ItemRow[]> {
      return db.select().from(storeItems).orderBy(asc(storeItems.sort), asc(storeItems.id));
    },

    async ownedIds(userId: string): Promise<Set<string>> {
      const rows = await db.select({ id: ownedItems.itemId }).from(ownedItems).where(eq(ownedItems.userId, userId));
      return new Set(rows.map((r) => r.id));
    },

    /** The emoji of every pack a user owns. */
    async ownedEmoji(userId: string): Promise<Array<{ pack: string; emoji: string[] }>> {
      return db
        .select({ pack: storeItems.name, emoji: storeItems.emoji })
        .from(ownedItems)
        .innerJoin(storeItems, eq(storeItems.id, ownedItems.itemId))
        .where(and(eq(ownedItems.userId, userId), eq(storeItems.kind, 'emojiPack')))
        .orderBy(asc(storeItems.sort));
    },

    /** Every emoji name a user may write (their packs' and their uploads'), in one query: read as they connect. */
    async emojiNames(userId: string): Promise<string[]> {
      const { rows } = await db.execute<{ name: string }>(sql`
        select unnest(${storeItems.emoji}) as name from ${ownedItems}
          join ${storeItems} on ${storeItems.id} = ${ownedItems.itemId}
          where ${ownedItems.userId} = ${userId} and ${storeItems.kind} = 'emojiPack'
        union all
        select ${customEmoji.name} from ${customEmoji} where ${customEmoji.ownerId} = ${userId} and ${customEmoji.deletedAt} is null`);
      return rows.map((r) => r.name);
    },

    /** The names of the custom emoji a user uploaded, oldest first. */
    async customEmojiNames(userId: string): Promise<string[]> {
      const rows = await db
        .select({ name: customEmoji.name })
        .from(customEmoji)
        .where(and(eq(customEmoji.ownerId, userId), isNull(customEmoji.deletedAt)))
        .orderBy(asc(customEmoji.createdAt), asc(customEmoji.name));
      return rows.map((r) => r.name);
    },

    /**
     * Stores an upload under a name nobody has, or one its owner deleted, while its owner has fewer
     * than `limit`: the owner's row is locked so two uploads at once cannot both take the last place.
     */
    async addCustomEmoji(ownerId: string, name: string, bytes: Buffer, limit: number): Promise<'added' | 'taken' | 'full'> {
      return db.transaction(async (tx) => {
        await tx.select({ id: users.id }).from(users).where(eq(users.id, ownerId)).for('update');
        const [count] = await tx
          .select({ n: sql<number>`count(*)::int` })
          .from(customEmoji)
          .where(and(eq(customEmoji.ownerId, ownerId), isNull(customEmoji.deletedAt)));
        if ((count?.n ?? 0) >= limit) return 'full';
        // A new created_at: the processes' owner polls (emojiOwners.ts) see it come back.
        const rows = await tx
          .insert(customEmoji)
          .values({ name, ownerId, bytes })
          .onConflictDoUpdate({
            target: customEmoji.name,
            set: { bytes, deletedAt: null, createdAt: sql`now()` },
            setWhere: and(eq(customEmoji.ownerId, ownerId), sql`${customEmoji.deletedAt} is not null`),
          })
          .returning({ name: customEmoji.name });
        return rows.length > 0 ? 'added' : 'taken';
      });
    },

    /**
     * Deletes one of the owner's uploads: its picture goes, its name stays theirs (messages that
     * show it must never show another's picture); false when they have none by that name.
     */
    async deleteCustomEmoji(ownerId: string, name: string): Promise<boolean> {
      const rows = await db
        .update(customEmoji)
        .set({ bytes: null, deletedAt: sql`now()` })
        .where(and(eq(customEmoji.ownerId, ownerId), eq(customEmoji.name, name), isNull(customEmoji.deletedAt)))
        .returning({ name: customEmoji.name });
      return rows.length > 0;
    },

    async customEmojiImage(name: string): Promise<Buffer | undefined> {
      const [row] = await db.select({ bytes: customEmoji.bytes }).from(customEmoji).where(eq(customEmoji.name, name)).limit(1);
      return row?.bytes ?? undefined;
    },

    /**
     * Buys an item in one round trip (the database's shop_buy): owns it, takes its price or gives
     * it back, and records the outcome under the buyer's key. A key used before answers its first
     * outcome with `fresh` false and changes nothing.
     */
    async buy(p: { userId: string; idempotencyKey: string; itemId: string; price: number }): Promise<PurchaseResult> {
      const r = await db.execute<{ r_outcome: PurchaseRow['outcome']; r_gold: number; r_item: string; r_fresh: boolean }>(
        sql`select r_outcome, r_gold, r_item, r_fresh from shop_buy(${p.userId}::uuid, ${p.idempotencyKey}::uuid, ${p.itemId}, ${p.price}::int)`,
      );
      const row = r.rows[0];
      if (!row) throw new Error('shop_buy answered nothing');
      return { outcome: row.r_outcome, goldAfter: Number(row.r_gold), itemId: row.r_item, fresh: row.r_fresh };
    },

    /**
     * Gives gold to another user in one round trip (the database's shop_gift), under the giver's
     * key: undefined when the recipient does not exist; a key used before answers its first
     * outcome with `fresh` false and changes nothing.
     */
    async gift(g: { fromUserId: string; idempotencyKey: string; toUserId: string; amount: number }): Promise<GiftResult | undefined> {
      const r = await db.execute<{ r_outcome: GiftRow['outcome']; r_gold: number; r_to: string; r_amount: number; r_fresh: boolean }>(
        sql`select r_outcome, r_gold, r_to, r_amount, r_fresh from shop_gift(${g.fromUserId}::uuid, ${g.idempotencyKey}::uuid, ${g.toUserId}::uuid, ${g.amount}::int)`,
      );
      const row = r.rows[0];
      return (
        row && {
          outcome: row.r_outcome,
          goldAfter: Number(row.r_gold),
          toUserId: row.r_to,
          amount: Number(row.r_amount),
          fresh: row.r_fresh,
        }
      );
    },
  };
}

export type ShopStore = ReturnType<typeof shopStore>;
