import { and, desc, eq, gt, isNotNull, isNull, lt, ne, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from './client.ts';
import { accountDevices, accountSignals, users } from './schema.ts';

/** What links accounts: the network they came from, and the page's device fingerprint. */
export type SignalKind = 'network' | 'device';
/** The signals of one sign-up or sign-in; either may be missing (no fingerprint sent). */
export type Signals = { network?: string | undefined; device?: string | undefined };
/** How two accounts are linked: a shared signal, or the same browser's device cookie. */
export type LinkKind = SignalKind | 'browser';

/** A signal seen again within this long keeps its row as it is: a refresh every few minutes writes nothing. */
const TOUCH_AFTER_MS = 60 * 60 * 1000;
/** Linked accounts shown on a case: the most recently seen first, enough to judge a pattern. */
const LINKED_LIMIT = 50;

const entries = (s: Signals): Array<[SignalKind, string]> =>
  (['network', 'device'] as const).flatMap((kind) => (s[kind] ? [[kind, s[kind]] as [SignalKind, string]] : []));

/** Records that an account used these signals now (refreshing their last use at most hourly). */
export async function recordSignals(db: Db, userId: string, signals: Signals, now = new Date()): Promise<void> {
  const rows = entries(signals).map(([kind, value]) => ({ userId, kind, value, lastSeen: now }));
  if (rows.length === 0) return;
  await db
    .insert(accountSignals)
    .values(rows)
    .onConflictDoUpdate({
      target: [accountSignals.userId, accountSignals.kind, accountSignals.value],
      set: { lastSeen: now },
      setWhere: lt(accountSignals.lastSeen, new Date(now.getTime() - TOUCH_AFTER_MS)),
    });
}

/**
 * A signal that this many accounts used is shared (a carrier's NAT, a campus, one phone model's
 * fingerprint): it says nothing about a person, so it links nobody to a ban.
 */
export const SHARED_SIGNAL_ACCOUNTS = 10;

/** Which of these signals an account under a ban (or a suspension in force) also used, and few others: empty when none. */
export async function signalsOfBannedAccounts(db: Db, signals: Signals, now = new Date()): Promise<SignalKind[]> {
  const all = entries(signals);
  if (all.length === 0) return [];
  const counts = await db
    .select({ kind: accountSignals.kind, value: accountSignals.value, accounts: sql<number>`count(*)`.mapWith(Number) })
    .from(accountSignals)
    .where(or(...all.map(([kind, value]) => and(eq(accountSignals.kind, kind), eq(accountSignals.value, value)))))
    .groupBy(accountSignals.kind, accountSignals.value);
  const shared = new Set(counts.filter((c) => c.accounts >= SHARED_SIGNAL_ACCOUNTS).map((c) => `${c.kind} ${c.value}`));
  const wanted = all.filter(([kind, value]) => !shared.has(`${kind} ${value}`));
  if (wanted.length === 0) return [];
  const rows = await db
    .selectDistinct({ kind: accountSignals.kind })
    .from(accountSignals)
    .innerJoin(users, eq(users.id, accountSignals.userId))
    .where(
      and(
        or(...wanted.map(([kind, value]) => and(eq(accountSignals.kind, kind), eq(accountSignals.value, value)))),
        isNotNull(users.bannedAt),
        or(isNull(users.suspendedUntil), gt(users.suspendedUntil, now)),
      ),
    );
  return rows.map((r) => r.kind);
}

/** Other accounts that share a network, a device fingerprint or a browser with this one, most recent first. */
export async function linkedAccountIds(db: Db, userId: string): Promise<Array<{ userId: string; linkedBy: LinkKind[]; lastSeen: Date }>> {
  const mine = alias(accountSignals, 'mine');
  const bySignal = await db
    .select({ userId: accountSignals.userId, kind: accountSignals.kind, lastSeen: sql<Date>`max(${accountSignals.lastSeen})` })
    .from(mine)
    .innerJoin(
      accountSignals,
      and(eq(accountSignals.kind, mine.kind), eq(accountSignals.value, mine.value), ne(accountSignals.userId, userId)),
    )
    .where(eq(mine.userId, userId))
    .groupBy(accountSignals.userId, accountSignals.kind)
    .orderBy(desc(sql`max(${accountSignals.lastSeen})`))
    .limit(LINKED_LIMIT * 2);
  const myDevices = alias(accountDevices, 'my_devices');
  const byBrowser = await db
    .select({ userId: accountDevices.userId, lastSeen: sql<Date>`max(${accountDevices.firstSeen})` })
    .from(myDevices)
    .innerJoin(accountDevices, and(eq(accountDevices.deviceId, myDevices.deviceId), ne(accountDevices.userId, userId)))
    .where(eq(myDevices.userId, userId))
    .groupBy(accountDevices.userId)
    .limit(LINKED_LIMIT);
  const linked = new Map<string, { userId: string; linkedBy: LinkKind[]; lastSeen: Date }>();
  for (const r of [...bySignal, ...byBrowser.map((b) => ({ ...b, kind: 'browser' as const }))]) {
    // PGlite and node-postgres both hand an aggregate's timestamp back as text.
    const seen = new Date(r.lastSeen);
    const entry = linked.get(r.userId) ?? { userId: r.userId, linkedBy: [], lastSeen: seen };
    entry.linkedBy.push(r.kind);
    if (seen > entry.lastSeen) entry.lastSeen = seen;
    linked.set(r.userId, entry);
  }
  return [...linked.values()].sort((a, b) => b.lastSeen.getTime() - a.lastSeen.getTime()).slice(0, LINKED_LIMIT);
}

/** Deletes signals last used before `before` (the retention the privacy policy states). */
export async function deleteSignalsBefore(db: Db, before: Date): Promise<number> {
  const gone = await db.delete(accountSignals).where(lt(accountSignals.lastSeen, before)).returning({ at: accountSignals.lastSeen });
  return gone.length;
}
