import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import { REFRESH_TOKEN_TTL_S } from '@parley/contract/constants';
import type { Db } from '../db/client.ts';
import { refreshTokens } from '../db/schema.ts';

/**
 * A refresh token as handed to the browser (only its hash is stored), when it expires, and its
 * family: the sign-in it continues, named in the access tokens minted with it (`sid`).
 */
export type RefreshGrant = { token: string; expiresAt: Date; familyId: string };

/** Told the family a reused (stolen) refresh token revoked, so its live sessions can end too. */
export type OnTheft = (familyId: string) => void;

/** The stored token a presented one matched, once it is known to be current. */
export type RefreshHolder = { userId: string; familyId: string };

/**
 * How long a rotated token still rotates again. A page that navigates away mid-refresh never sees
 * the new cookie, and two tabs may refresh at once: presenting the token a second time within
 * these seconds is that race, not theft (the reuse interval of Auth0 and Okta). Later it is theft.
 */
export const REFRESH_REUSE_GRACE_S = 30;

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

/** Starts a new family (a sign-in) or continues one (a rotation). */
export async function issueRefreshToken(db: Db, userId: string, familyId: string = randomUUID()): Promise<RefreshGrant> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + REFRESH_TOKEN_TTL_S * 1000);
  await db.insert(refreshTokens).values({ userId, familyId, tokenHash: hashOf(token), expiresAt });
  return { token, expiresAt, familyId };
}

/**
 * Uses a refresh token: marks it rotated and returns its holder. The update is a single
 * conditional statement, and the first rotation's time is kept, so the grace never grows. Within
 * REFRESH_REUSE_GRACE_S of that first rotation the token rotates again; presenting it later is
 * treated as theft and revokes the whole family.
 */
export async function rotateRefreshToken(db: Db, token: string, onTheft?: OnTheft): Promise<RefreshHolder | null> {
  const tokenHash = hashOf(token);
  const [used] = await db
    .update(refreshTokens)
    .set({ rotatedAt: sql`coalesce(${refreshTokens.rotatedAt}, now())` })
    .where(
      and(
        eq(refreshTokens.tokenHash, tokenHash),
        or(isNull(refreshTokens.rotatedAt), sql`${refreshTokens.rotatedAt} > now() - make_interval(secs => ${REFRESH_REUSE_GRACE_S})`),
        isNull(refreshTokens.revokedAt),
        sql`${refreshTokens.expiresAt} > now()`,
      ),
    )
    .returning({ userId: refreshTokens.userId, familyId: refreshTokens.familyId });
  if (used) return used;
  await revokeIfReused(db, tokenHash, onTheft);
  return null;
}

/** Reads a refresh token without rotating it (GET /api/auth/info); reuse detection still applies past the grace. */
export async function currentRefreshToken(db: Db, token: string, onTheft?: OnTheft): Promise<RefreshHolder | null> {
  const tokenHash = hashOf(token);
  const [row] = await db.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, tokenHash)).limit(1);
  if (!row) return null;
  if (row.rotatedAt && !row.revokedAt) {
    // Read within the grace: the race described above, refused without revoking anything.
    if (row.rotatedAt.getTime() > Date.now() - REFRESH_REUSE_GRACE_S * 1000) return null;
    await revokeFamily(db, row.familyId);
    onTheft?.(row.familyId);
    return null;
  }
  if (row.revokedAt || row.expiresAt.getTime() <= Date.now()) return null;
  return { userId: row.userId, familyId: row.familyId };
}

/** Signs a device out: the presented token's whole family stops working. Resolves to that family. */
export async function revokeFamilyOf(db: Db, token: string): Promise<string | undefined> {
  const [row] = await db
    .select({ familyId: refreshTokens.familyId })
    .from(refreshTokens)
    .where(eq(refreshTokens.tokenHash, hashOf(token)))
    .limit(1);
  if (!row) return undefined;
  await revokeFamily(db, row.familyId);
  return row.familyId;
}

export async function revokeFamily(db: Db, familyId: string): Promise<void> {
  await db
    .update(refreshTokens)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)));
}

/**
 * Expired tokens carry no information any more (rotated ones are kept until then, for reuse
 * detection), so the whole table is swept of them now and then.
 */
export async function deleteExpiredRefreshTokens(db: Db): Promise<number> {
  const gone = await db
    .delete(refreshTokens)
    .where(lt(refreshTokens.expiresAt, sql`now()`))
    .returning({ at: refreshTokens.expiresAt });
  return gone.length;
}

async function revokeIfReused(db: Db, tokenHash: string, onTheft: OnTheft | undefined): Promise<void> {
  const [row] = await db
    .select({ familyId: refreshTokens.familyId, rotatedAt: refreshTokens.rotatedAt, revokedAt: refreshTokens.revokedAt })
    .from(refreshTokens)
    .where(eq(refreshTokens.tokenHash, tokenHash))
    .limit(1);
  if (!row?.rotatedAt || row.revokedAt) return;
  await revokeFamily(db, row.familyId);
  onTheft?.(row.familyId);
}
