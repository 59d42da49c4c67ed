import { isNotNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { refreshTokens } from '../db/schema.ts';
import { REFRESH_REUSE_GRACE_S } from '../auth/refreshTokens.ts';

/** Moves every rotation back past the reuse grace: a rotated token presented after this is theft. */
export async function pastRefreshGrace(db: Db): Promise<void> {
  await db
    .update(refreshTokens)
    .set({ rotatedAt: sql`${refreshTokens.rotatedAt} - make_interval(secs => ${REFRESH_REUSE_GRACE_S + 1})` })
    .where(isNotNull(refreshTokens.rotatedAt));
}
