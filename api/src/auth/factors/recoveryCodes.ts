import { createHmac, randomBytes } from 'node:crypto';
import { and, count, eq, isNull, sql } from 'drizzle-orm';
import { RECOVERY_CODE_COUNT } from '@parley/contract/factors';
import type { Db } from '../../db/client.ts';
import { recoveryCodes } from '../../db/schema.ts';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

/** Ten letters and digits (50 bits), shown as xxxxx-xxxxx. */
function newCode(): string {
  const bytes = randomBytes(10);
  let s = '';
  for (const b of bytes) s += ALPHABET[b & 31];
  return `${s.slice(0, 5)}-${s.slice(5)}`;
}

/** Recovery codes of every account, kept as keyed hashes: a copy of the table alone opens nothing. */
export function recoveryCodeStore(db: Db, jwtSecret: Uint8Array) {
  const key = createHmac('sha256', jwtSecret).update('parley recovery codes v1').digest();
  const hashOf = (code: string) =>
    createHmac('sha256', key)
      .update(code.replace(/[\s-]+/g, '').toLowerCase())
      .digest('base64url');

  return {
    hashOf,
    /** A new set for the account; the old ones stop working in the same transaction. */
    async regenerate(userId: string): Promise<string[]> {
      const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newCode);
      await db.transaction(async (tx) => {
        await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
        await tx.insert(recoveryCodes).values(codes.map((c) => ({ userId, codeHash: hashOf(c) })));
      });
      return codes;
    },
    /** Uses a code once: of two concurrent uses exactly one wins. */
    async consume(userId: string, code: string): Promise<boolean> {
      const used = await db
        .update(recoveryCodes)
        .set({ usedAt: sql`now()` })
        .where(and(eq(recoveryCodes.userId, userId), eq(recoveryCodes.codeHash, hashOf(code)), isNull(recoveryCodes.usedAt)))
        .returning({ id: recoveryCodes.id });
      return used.length > 0;
    },
    async left(userId: string): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(recoveryCodes)
        .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
      return row?.n ?? 0;
    },
  };
}

export type RecoveryCodeStore = ReturnType<typeof recoveryCodeStore>;
