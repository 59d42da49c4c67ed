import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import type { AppDeps } from '../deps.ts';
import { refreshTokens } from '../db/schema.ts';

/**
 * Ends a user's sign-ins (all, or all but `keepSid`): their refresh tokens are revoked (every
 * process reads that within a second), their access tokens refused here at once, their sockets closed.
 */
export async function endSignIns(
  deps: Pick<AppDeps, 'db' | 'revocations' | 'realtime' | 'log'>,
  userId: string,
  reason: string,
  keepSid?: string,
) {
  const rows = await deps.db
    .update(refreshTokens)
    .set({ revokedAt: sql`now()` })
    .where(
      and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt), keepSid ? ne(refreshTokens.familyId, keepSid) : undefined),
    )
    .returning({ familyId: refreshTokens.familyId });
  for (const familyId of new Set(rows.map((r) => r.familyId))) {
    deps.revocations.revokeSignIn(familyId);
    deps.realtime.endSignIn(familyId, reason).catch((err: unknown) => deps.log.error({ err }, 'ending a sign-in failed'));
  }
}
