import { and, count, eq, gte, inArray } from 'drizzle-orm';
import { RESTRICTED_MIN_DAYS, RESTRICTED_MIN_REAL_CHATS } from '@parley/contract/safety';
import type { Db } from '../db/client.ts';
import { reports, users } from '../db/schema.ts';
import type { SearchFacts } from '../db/accounts.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Decisions that uphold a report (a dismissal does not). */
const UPHELD = ['warn', 'suspend', 'ban'];
/** Accounts known to be free held in memory at most; past it the set starts over. */
const MAX_FREE_KNOWN = 100_000;

/**
 * Accounts that signed up from the network or device of a banned account start restricted: no
 * video chat, and matched only with people in review. The restriction lifts by itself once the
 * account is RESTRICTED_MIN_DAYS old, has had RESTRICTED_MIN_REAL_CHATS real conversations and
 * no report against it was upheld since.
 *
 * Restriction is only ever set at sign-up, so an account once found free stays free: those are
 * remembered in memory, and only restricted accounts (few) cost a query per search.
 */
export function restrictions(
  db: Db,
  /** The account's restriction and real chats (read with matching's facts, in one statement per turn). */
  account: (userId: string) => Promise<Pick<SearchFacts, 'restrictedAt' | 'realChats'> | undefined>,
  now = () => new Date(),
) {
  const free = new Set<string>();
  const remember = (userId: string) => {
    if (free.size >= MAX_FREE_KNOWN) free.clear();
    free.add(userId);
  };

  /** Clean history since the restriction began: old enough, enough real chats, nothing upheld. */
  async function clean(userId: string, since: Date, realChats: number): Promise<boolean> {
    if (now().getTime() - since.getTime() < RESTRICTED_MIN_DAYS * DAY_MS || realChats < RESTRICTED_MIN_REAL_CHATS) return false;
    const [upheld] = await db
      .select({ n: count() })
      .from(reports)
      .where(and(eq(reports.reportedId, userId), inArray(reports.resolution, UPHELD), gte(reports.createdAt, since)));
    return (upheld?.n ?? 0) === 0;
  }

  return {
    /** Whether this account is restricted now (lifting the restriction when its history has become clean). */
    async restricted(userId: string): Promise<boolean> {
      if (free.has(userId)) return false;
      const row = await account(userId);
      if (!row) return false;
      const since = row.restrictedAt;
      if (since && !(await clean(userId, since, row.realChats))) return true;
      if (since)
        await db
          .update(users)
          .set({ restrictedAt: null })
          .where(and(eq(users.id, userId), eq(users.restrictedAt, since)));
      remember(userId);
      return false;
    },
  };
}

export type Restrictions = ReturnType<typeof restrictions>;
