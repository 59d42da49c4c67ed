import { and, eq, sql } from 'drizzle-orm';
import { ACCOUNT_ERR, USERNAME_CHANGE_DAYS, USERNAME_HELD_DAYS, type UsernameStatus } from '@parley/contract/accounts';
import { ERR } from '@parley/contract/errors';
import type { Db } from '../db/client.ts';
import { findAccountById, uniqueViolation, usernameHeld, type Account } from '../db/accounts.ts';
import { usernameReservations, users } from '../db/schema.ts';
import { DomainError } from '../platform/errors.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const taken = () => new DomainError('conflict', ERR.usernameTaken, 'username_taken');

const nextChangeAt = (a: Account) => (a.usernameChangedAt ? new Date(a.usernameChangedAt.getTime() + USERNAME_CHANGE_DAYS * DAY_MS) : null);

/** A username changes once a month; the old one stays held for its owner USERNAME_HELD_DAYS, so nobody takes it over meanwhile. */
export function usernameChanges(db: Db) {
  async function live(userId: string) {
    const a = await findAccountById(db, userId);
    if (!a || a.deletedAt) throw new DomainError('unauthenticated', 'Your account no longer exists.', 'unauthorized');
    return a;
  }
  return {
    async status(userId: string): Promise<UsernameStatus> {
      const a = await live(userId);
      const next = nextChangeAt(a);
      return { username: a.username, nextChangeAt: next && next.getTime() > Date.now() ? next.toISOString() : null };
    },

    async change(userId: string, username: string): Promise<Account> {
      const a = await live(userId);
      const next = nextChangeAt(a);
      if (next && next.getTime() > Date.now())
        throw new DomainError(
          'too_many',
          ACCOUNT_ERR.usernameTooSoon,
          'username_too_soon',
          Math.ceil((next.getTime() - Date.now()) / 1000),
        );
      if (await usernameHeld(db, username, userId)) throw taken();
      try {
        return await db.transaction(async (tx) => {
          const [row] = await tx
            .update(users)
            .set({ username, usernameChangedAt: sql`now()` })
            .where(eq(users.id, userId))
            .returning();
          // Taking back one's own held name ends its hold; the name given up is held from now.
          await tx
            .delete(usernameReservations)
            .where(and(eq(usernameReservations.nameLower, username.toLowerCase()), eq(usernameReservations.userId, userId)));
          if (a.username.toLowerCase() !== username.toLowerCase()) {
            const until = new Date(Date.now() + USERNAME_HELD_DAYS * DAY_MS);
            await tx
              .insert(usernameReservations)
              .values({ nameLower: a.username.toLowerCase(), userId, until })
              .onConflictDoUpdate({ target: usernameReservations.nameLower, set: { userId, until } });
          }
          return row!;
        });
      } catch (e) {
        if (uniqueViolation(e) === 'users_username_lower_idx') throw taken();
        throw e;
      }
    },
  };
}
