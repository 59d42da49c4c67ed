import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { TokenUser } from '@parley/contract/auth';
import type { Db } from './client.ts';
import { usernameReservations, users } from './schema.ts';
import { batcher } from '../platform/batcher.ts';

/** A user account as stored. */
export type Account = typeof users.$inferSelect;
export type NewAccount = typeof users.$inferInsert;

/** What the access token says about an account: exactly the spec's fields. */
export function tokenUserOf(account: Account): TokenUser {
  return {
    username: account.username,
    userId: account.id,
    avatar: account.avatar,
    gender: account.gender ?? null,
    age: account.age ?? null,
    isVerified: account.isVerified,
    premiumUser: account.premiumUser,
  };
}

export async function findAccountById(db: Db, id: string): Promise<Account | undefined> {
  if (!isUuid(id)) return undefined;
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row;
}

/** Usernames are unique regardless of case, so look-ups are too. */
export async function findAccountByUsername(db: Db, username: string): Promise<Account | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.username}) = lower(${username})`)
    .limit(1);
  return row;
}

/** Which of these names are taken (in any case); answers them lower-cased. One query. */
export async function takenUsernames(db: Db, names: readonly string[]): Promise<Set<string>> {
  const lower = [...new Set(names.map((n) => n.toLowerCase()))];
  if (lower.length === 0) return new Set();
  const list = sql.join(
    lower.map((n) => sql`${n}`),
    sql`, `,
  );
  // A name given up by a rename is held for its old owner a while: taken for everyone else.
  const result = await db.execute<{ name: string }>(sql`
    select lower(${users.username}) as name from ${users} where lower(${users.username}) in (${list})
    union select ${usernameReservations.nameLower} from ${usernameReservations}
      where ${usernameReservations.nameLower} in (${list}) and ${usernameReservations.until} > now()`);
  return new Set(result.rows.map((r) => r.name));
}

export async function findAccountByGoogleId(db: Db, googleId: string): Promise<Account | undefined> {
  const [row] = await db.select().from(users).where(eq(users.googleId, googleId)).limit(1);
  return row;
}

export class UsernameTakenError extends Error {
  constructor() {
    super('username taken');
  }
}

/** Inserts an account; a concurrent sign-up of the same name (any case) becomes UsernameTakenError. */
export async function insertAccount(db: Db, account: NewAccount): Promise<Account> {
  if (await usernameHeld(db, account.username)) throw new UsernameTakenError();
  try {
    const [row] = await db.insert(users).values(account).returning();
    return row!;
  } catch (e) {
    if (uniqueViolation(e) === 'users_username_lower_idx') throw new UsernameTakenError();
    throw e;
  }
}

export async function setVerifyInfo(
  db: Db,
  id: string,
  info: { age: number; gender: 'male' | 'female' | 'other' },
): Promise<Account | undefined> {
  const [row] = await db
    .update(users)
    .set({ age: info.age, gender: info.gender, isVerified: true })
    .where(and(eq(users.id, id), isNull(users.age), isNull(users.gender), isNull(users.ageGateFailedAt)))
    .returning();
  return row;
}

export async function recordAgeGateFailure(db: Db, id: string): Promise<void> {
  await db
    .update(users)
    .set({ ageGateFailedAt: sql`now()` })
    .where(eq(users.id, id));
}

/** The name of the unique index a failed insert ran into (PostgreSQL and PGlite alike), if any. */
export function uniqueViolation(e: unknown): string | undefined {
  for (let err = e as { code?: unknown; constraint?: unknown; cause?: unknown } | undefined; err; err = err.cause as typeof err) {
    if (err.code === '23505') return typeof err.constraint === 'string' ? err.constraint : 'unknown';
  }
  return undefined;
}

export function isUuid(s: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s);
}

/** An account's ban or suspension in force at `now`: undefined when it may use Parley. */
export function activeBan(account: Account, now = new Date()): { until: Date | null; rule: string | null } | undefined {
  if (!account.bannedAt) return undefined;
  if (account.suspendedUntil && account.suspendedUntil <= now) return undefined;
  return { until: account.suspendedUntil, rule: account.banRule };
}

/** Whether a rename gave this name up lately: held for its old owner (`except`), taken for anyone else. */
export async function usernameHeld(db: Db, username: string, except?: string): Promise<boolean> {
  const [row] = await db
    .select({ userId: usernameReservations.userId })
    .from(usernameReservations)
    .where(and(eq(usernameReservations.nameLower, username.trim().toLowerCase()), sql`${usernameReservations.until} > now()`))
    .limit(1);
  return Boolean(row && row.userId !== except);
}

/** What a search reads of its person's account: matching's languages and country, safety's restriction. */
export type SearchFacts = Pick<Account, 'languages' | 'learning' | 'country' | 'privateFields' | 'restrictedAt' | 'realChats'>;

/**
 * Reads search facts by account id: every person asked for in the same event-loop turn, by
 * matching and by safety alike (a wave of people connecting and searching), in one statement.
 * Undefined for an account that does not exist.
 */
export function searchFactsReader(
  db: Db,
  busyGather?: { ms: number; items: number },
): (userId: string) => Promise<SearchFacts | undefined> {
  const reads = batcher(
    async (ids: string[]) => {
      const rows = await db
        .select({
          id: users.id,
          languages: users.languages,
          learning: users.learning,
          country: users.country,
          privateFields: users.privateFields,
          restrictedAt: users.restrictedAt,
          realChats: users.realChats,
        })
        .from(users)
        .where(inArray(users.id, [...new Set(ids)]));
      const byId = new Map(rows.map((r) => [r.id, r]));
      return ids.map((id) => byId.get(id));
    },
    { maxItems: 500, busyGather },
  );
  return (userId) => reads.add(userId);
}
