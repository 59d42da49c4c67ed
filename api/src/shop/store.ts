import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { customEmoji, goldGifts, ownedItems, purchases, storeItems, users, wallets } from '../db/schema.ts';

export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type ItemRow = typeof storeItems.$inferSelect;
export type PurchaseRow = typeof purchases.$inferSelect;
export type GiftRow = typeof goldGifts.$inferSelect;

/** The shop's rows: the catalogue, what users own, purchases and gifts by idempotency key, and gold. */
export function shopStore(db: Db) {
  return {
    db,
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

    async gold(tx: Tx | Db, userId: string): Promise<number> {
      const [row] = await tx.select({ gold: wallets.gold }).from(wallets).where(eq(wallets.userId, userId)).limit(1);
      return row?.gold ?? 0;
    },

    /** Takes gold when there is enough, in one statement: concurrent debits can never overdraw. */
    async debit(tx: Tx, userId: string, amount: number): Promise<number | undefined> {
      const [row] = await tx
        .update(wallets)
        .set({ gold: sql`${wallets.gold} - ${amount}` })
        .where(and(eq(wallets.userId, userId), sql`${wallets.gold} >= ${amount}`))
        .returning({ gold: wallets.gold });
      return row?.gold;
    },

    async credit(tx: Tx, userId: string, amount: number): Promise<void> {
      await tx.insert(wallets).values({ userId }).onConflictDoNothing();
      await tx
        .update(wallets)
        .set({ gold: sql`${wallets.gold} + ${amount}` })
        .where(eq(wallets.userId, userId));
    },

    /** Locks the wallets of a transfer in one order, so two people giving to each other never deadlock. */
    async lockWallets(tx: Tx, userIds: string[]): Promise<void> {
      await tx
        .insert(wallets)
        .values(userIds.map((userId) => ({ userId })))
        .onConflictDoNothing();
      await tx
        .select({ id: wallets.userId })
        .from(wallets)
        .where(inArray(wallets.userId, userIds))
        .orderBy(asc(wallets.userId))
        .for('update');
    },

    /** Records a purchase's outcome under its key; false when the key was used before (the caller answers the first result). */
    async recordPurchase(tx: Tx, p: typeof purchases.$inferInsert): Promise<boolean> {
      const rows = await tx.insert(purchases).values(p).onConflictDoNothing().returning({ key: purchases.idempotencyKey });
      return rows.length > 0;
    },

    async purchase(userId: string, idempotencyKey: string): Promise<PurchaseRow | undefined> {
      const [row] = await db
        .select()
        .from(purchases)
        .where(and(eq(purchases.userId, userId), eq(purchases.idempotencyKey, idempotencyKey)))
        .limit(1);
      return row;
    },

    /** Gives an item; false when the user owns it already. */
    async own(tx: Tx, userId: string, itemId: string): Promise<boolean> {
      const rows = await tx.insert(ownedItems).values({ userId, itemId }).onConflictDoNothing().returning({ id: ownedItems.itemId });
      return rows.length > 0;
    },

    async disown(tx: Tx, userId: string, itemId: string): Promise<void> {
      await tx.delete(ownedItems).where(and(eq(ownedItems.userId, userId), eq(ownedItems.itemId, itemId)));
    },

    async userExists(tx: Tx, userId: string): Promise<boolean> {
      const [row] = await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).limit(1);
      return row !== undefined;
    },

    async claimGift(tx: Tx, g: { fromUserId: string; idempotencyKey: string; toUserId: string; amount: number }): Promise<boolean> {
      const rows = await tx
        .insert(goldGifts)
        .values({ ...g, outcome: 'sent', goldAfter: 0 })
        .onConflictDoNothing()
        .returning({ key: goldGifts.idempotencyKey });
      return rows.length > 0;
    },

    async gift(fromUserId: string, idempotencyKey: string): Promise<GiftRow | undefined> {
      const [row] = await db
        .select()
        .from(goldGifts)
        .where(and(eq(goldGifts.fromUserId, fromUserId), eq(goldGifts.idempotencyKey, idempotencyKey)))
        .limit(1);
      return row;
    },

    async settleGift(tx: Tx, fromUserId: string, idempotencyKey: string, outcome: GiftRow['outcome'], goldAfter: number) {
      await tx
        .update(goldGifts)
        .set({ outcome, goldAfter })
        .where(and(eq(goldGifts.fromUserId, fromUserId), eq(goldGifts.idempotencyKey, idempotencyKey)));
    },
  };
}

export type ShopStore = ReturnType<typeof shopStore>;
