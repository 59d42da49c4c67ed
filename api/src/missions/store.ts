import { and, desc, eq, gte, inArray, isNotNull, sql } from 'drizzle-orm';
import type { MissionEventKind } from '@parley/contract/missions';
import type { Db } from '../db/client.ts';
import { missionEvents, questCatalogue, users, userQuests, visitDays, wallets } from '../db/schema.ts';

export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type Wallet = typeof wallets.$inferSelect;
export type CatalogueRow = typeof questCatalogue.$inferSelect & { kind: MissionEventKind };
export type UserQuestRow = typeof userQuests.$inferSelect;

/** Missions' rows in PostgreSQL (PGlite or a server). Writes take a transaction. */
export function missionStore(db: Db) {
  return {
    db,
    async catalogue(tx: Tx): Promise<CatalogueRow[]> {
      return (await tx.select().from(questCatalogue)) as CatalogueRow[];
    },

    /** The user's wallet, created on first use, locked for the rest of the transaction. */
    async lockWallet(tx: Tx, userId: string): Promise<Wallet & { createdAt: Date }> {
      await tx.insert(wallets).values({ userId }).onConflictDoNothing();
      const [row] = await tx
        .select({ w: wallets, createdAt: users.createdAt })
        .from(wallets)
        .innerJoin(users, eq(users.id, wallets.userId))
        .where(eq(wallets.userId, userId))
        .for('update', { of: wallets });
      if (!row) throw new Error('wallet missing after insert');
      return { ...row.w, createdAt: row.createdAt };
    },

    async wallet(userId: string): Promise<Wallet | undefined> {
      const [row] = await db.select().from(wallets).where(eq(wallets.userId, userId)).limit(1);
      return row;
    },

    /** Records an event key; false when it was recorded before (a repeated delivery). */
    async firstTime(tx: Tx, e: { userId: string; key: string; kind: string; label: string; xp: number; gold: number }): Promise<boolean> {
      const rows = await tx.insert(missionEvents).values(e).onConflictDoNothing().returning({ key: missionEvents.key });
      return rows.length > 0;
    },

    /** Adds XP and gold, creating the wallet on first use, in one statement (which locks the row until commit). */
    async credit(tx: Tx, userId: string, xp: number, gold: number): Promise<{ xp: number; level: number; timeZone: string }> {
      const [row] = await tx
        .insert(wallets)
        .values({ userId, xp, gold })
        .onConflictDoUpdate({ target: wallets.userId, set: { xp: sql`${wallets.xp} + ${xp}`, gold: sql`${wallets.gold} + ${gold}` } })
        .returning({ xp: wallets.xp, level: wallets.level, timeZone: wallets.timeZone });
      return row!;
    },

    /**
     * Records many event keys at once (rows in user and key order, as every batch locks them, so
     * two processes' batches never wait on each other in a circle); the keys recorded now. Events
     * of an account that no longer exists are not recorded.
     */
    async firstTimes(tx: Tx, rows: Array<{ userId: string; key: string; kind: string; label: string; xp: number; gold: number }>) {
      const r = await tx.execute(sql`insert into mission_events (user_id, key, kind, label, xp, gold)
        select v."userId", v.key, v.kind, v.label, v.xp, v.gold
          from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as v("userId" uuid, key text, kind text, label text, xp int, gold int)
          -- An account removed meanwhile has nothing to be rewarded: its events are left out, not the batch failed.
          where exists (select 1 from users u where u.id = v."userId")
          order by v."userId", v.key
        on conflict do nothing
        returning user_id as "userId", key`);
      return (r as unknown as { rows: Array<{ userId: string; key: string }> }).rows;
    },

    /** Credits many wallets at once (created on first use), in user order; each one's totals after. */
    async creditMany(tx: Tx, credits: Array<{ userId: string; xp: number; gold: number }>) {
      const r = await tx.execute(sql`insert into wallets (user_id, xp, gold)
        select v."userId", v.xp, v.gold from jsonb_to_recordset(${JSON.stringify(credits)}::jsonb) as v("userId" uuid, xp int, gold int)
          order by v."userId"
        on conflict (user_id) do update set xp = wallets.xp + excluded.xp, gold = wallets.gold + excluded.gold
        returning user_id as "userId", xp, level, time_zone as "timeZone"`);
      return (r as unknown as { rows: Array<{ userId: string; xp: number; level: number; timeZone: string }> }).rows;
    },

    /** Levels reached by many users at once: each one's level-up gold, and the level. */
    async levelUpMany(tx: Tx, ups: Array<{ userId: string; gold: number; level: number }>) {
      await tx.execute(sql`update wallets w set gold = w.gold + v.gold, level = greatest(w.level, v.level)
        from jsonb_to_recordset(${JSON.stringify(ups)}::jsonb) as v("userId" uuid, gold int, level int)
        where w.user_id = v."userId"`);
    },

    /** Gives many users their quests drawn for periods, once. */
    async assignMany(tx: Tx, rows: Array<{ userId: string; period: string; questId: string; kind: string; target: number }>) {
      if (rows.length === 0) return;
      await tx.execute(sql`insert into user_quests (user_id, period, quest_id, kind, target)
        select v."userId", v.period, v."questId", v.kind, v.target
          from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as v("userId" uuid, period text, "questId" text, kind text, target int)
          order by v."userId", v.period, v."questId"
        on conflict do nothing`);
    },

    /** Advances many users' quests of a kind in their day and week at once (one row per user and kind). */
    async advanceMany(tx: Tx, steps: Array<{ userId: string; day: string; week: string; kind: string; amount: number }>) {
      if (steps.length === 0) return;
      await tx.execute(sql`update user_quests q set progress = least(q.progress + v.amount, q.target)
        from jsonb_to_recordset(${JSON.stringify(steps)}::jsonb) as v("userId" uuid, day text, week text, kind text, amount int)
        where q.user_id = v."userId" and q.period in (v.day, v.week) and q.kind = v.kind`);
    },

    async setLevel(tx: Tx, userId: string, level: number): Promise<void> {
      await tx.update(wallets).set({ level }).where(eq(wallets.userId, userId));
    },

    async saveStreak(
      tx: Tx,
      userId: string,
      s: Partial<Pick<Wallet, 'timeZone' | 'streakDays' | 'lastVisit' | 'lastVisitZone' | 'freezes'>>,
    ) {
      await tx.update(wallets).set(s).where(eq(wallets.userId, userId));
    },

    async markDays(tx: Tx, userId: string, days: Array<{ day: string; frozen: boolean }>) {
      if (days.length === 0) return;
      await tx
        .insert(visitDays)
        .values(days.map((d) => ({ userId, ...d })))
        .onConflictDoNothing();
    },

    async days(userId: string, since: string) {
      return db
        .select({ day: visitDays.day, frozen: visitDays.frozen })
        .from(visitDays)
        .where(and(eq(visitDays.userId, userId), gte(visitDays.day, since)));
    },

    async advance(tx: Tx, userId: string, periods: string[], kind: string, amount: number) {
      await tx
        .update(userQuests)
        .set({ progress: sql`least(${userQuests.progress} + ${amount}, ${userQuests.target})` })
        .where(and(eq(userQuests.userId, userId), inArray(userQuests.period, periods), eq(userQuests.kind, kind)));
    },

    async quests(userId: string, periods: string[]) {
      return db
        .select({ q: userQuests, c: questCatalogue })
        .from(userQuests)
        .innerJoin(questCatalogue, eq(questCatalogue.id, userQuests.questId))
        .where(and(eq(userQuests.userId, userId), inArray(userQuests.period, periods)));
    },

    /** Marks a completed quest claimed; undefined when it is not the user's, not done, or claimed. */
    async claim(tx: Tx, userId: string, period: string, questId: string) {
      const [row] = await tx
        .select()
        .from(userQuests)
        .where(and(eq(userQuests.userId, userId), eq(userQuests.period, period), eq(userQuests.questId, questId)))
        .for('update');
      if (!row || row.progress < row.target || row.claimedAt) return row;
      await tx
        .update(userQuests)
        .set({ claimedAt: new Date() })
        .where(and(eq(userQuests.userId, userId), eq(userQuests.period, period), eq(userQuests.questId, questId)));
      return { ...row, claimedAt: null, justClaimed: true as const };
    },

    async recentRewards(userId: string, limit: number) {
      return db
        .select({ label: missionEvents.label, xp: missionEvents.xp, gold: missionEvents.gold, at: missionEvents.createdAt })
        .from(missionEvents)
        .where(eq(missionEvents.userId, userId))
        .orderBy(desc(missionEvents.createdAt))
        .limit(limit);
    },

    async saveSettings(userId: string, s: { streakReminders: boolean; quietFrom?: number; quietTo?: number }) {
      await db.insert(wallets).values({ userId }).onConflictDoNothing();
      await db.update(wallets).set(s).where(eq(wallets.userId, userId));
    },

    /** Wallets that may be due a streak reminder: the switch on and a streak to keep. */
    async reminderCandidates() {
      return db
        .select()
        .from(wallets)
        .where(and(eq(wallets.streakReminders, true), isNotNull(wallets.lastVisit)));
    },

    /** Claims today's reminder for a user; false when another process already sent it. */
    async claimReminder(userId: string, today: string): Promise<boolean> {
      const rows = await db
        .update(wallets)
        .set({ lastReminder: today })
        .where(and(eq(wallets.userId, userId), sql`${wallets.lastReminder} is distinct from ${today}`))
        .returning({ userId: wallets.userId });
      return rows.length > 0;
    },
  };
}

export type MissionStore = ReturnType<typeof missionStore>;
