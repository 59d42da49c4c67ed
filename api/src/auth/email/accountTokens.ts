import { createHash, randomBytes } from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { accountTokens } from '../../db/schema.ts';

export type AccountTokenPurpose = 'verify_email' | 'reset_password';

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * A fresh single-use token for a link: 32 random bytes for the email, only their sha256 stored,
 * bound to the account, the purpose and (to verify) the address. Older unused tokens of the same
 * account and purpose stop working: only the latest link counts.
 */
export async function issueAccountToken(
  db: Db,
  userId: string,
  purpose: AccountTokenPurpose,
  ttlS: number,
  email: string | null = null,
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db.transaction(async (tx) => {
    await tx
      .update(accountTokens)
      .set({ usedAt: sql`now()` })
      .where(and(eq(accountTokens.userId, userId), eq(accountTokens.purpose, purpose), isNull(accountTokens.usedAt)));
    await tx
      .insert(accountTokens)
      .values({ userId, purpose, tokenHash: hashOf(token), email, expiresAt: new Date(Date.now() + ttlS * 1000) });
  });
  return token;
}

/**
 * Uses a token once, for this purpose only: one conditional update, so of two concurrent uses
 * exactly one wins. Undefined for an unknown, used, expired or other-purpose token.
 */
export async function consumeAccountToken(
  db: Db,
  token: string,
  purpose: AccountTokenPurpose,
): Promise<{ userId: string; email: string | null } | undefined> {
  const [row] = await db
    .update(accountTokens)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(accountTokens.tokenHash, hashOf(token)),
        eq(accountTokens.purpose, purpose),
        isNull(accountTokens.usedAt),
        sql`${accountTokens.expiresAt} > now()`,
      ),
    )
    .returning({ userId: accountTokens.userId, email: accountTokens.email });
  return row;
}

/** Every unused token of the account for this purpose stops working (a reset done, an address removed). */
export async function voidAccountTokens(db: Db, userId: string, purpose: AccountTokenPurpose): Promise<void> {
  await db
    .update(accountTokens)
    .set({ usedAt: sql`now()` })
    .where(and(eq(accountTokens.userId, userId), eq(accountTokens.purpose, purpose), isNull(accountTokens.usedAt)));
}

/** Expired tokens tell nothing any more (kept a day, so a late click still reads as expired rather than unknown). */
export async function deleteSpentAccountTokens(db: Db): Promise<number> {
  const gone = await db
    .delete(accountTokens)
    .where(sql`${accountTokens.expiresAt} < now() - interval '1 day'`)
    .returning({ id: accountTokens.id });
  return gone.length;
}
