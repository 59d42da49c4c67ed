import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import type { SignInView } from '@parley/contract/accounts';
import type { AppDeps } from '../../deps.ts';
import type { Db } from '../../db/client.ts';
import { pushSubscriptions, refreshTokens, signIns } from '../../db/schema.ts';
import { deviceName } from './userAgent.ts';
import { countryOfAddress } from '../../platform/geo.ts';

/** Keeps what the devices list shows of a new sign-in (its refresh token family). */
export async function recordSignIn(
  db: Db,
  signIn: { familyId: string; userId: string; deviceId?: string | undefined; userAgent?: string | undefined; address?: string | undefined },
) {
  await db
    .insert(signIns)
    .values({
      familyId: signIn.familyId,
      userId: signIn.userId,
      deviceId: signIn.deviceId ?? null,
      userAgent: (signIn.userAgent ?? '').slice(0, 400),
      country: countryOfAddress(signIn.address),
    })
    .onConflictDoNothing();
}

/**
 * The account's sign-ins still in force: one per refresh token family with a current token (not
 * rotated, revoked or expired). Last seen is when that token was issued, at the last refresh.
 */
export async function listSignIns(db: Db, userId: string, currentSid: string | undefined): Promise<SignInView[]> {
  const rows = await db
    .select({
      familyId: refreshTokens.familyId,
      lastSeen: refreshTokens.createdAt,
      firstSeen: signIns.createdAt,
      userAgent: signIns.userAgent,
      country: signIns.country,
    })
    .from(refreshTokens)
    .leftJoin(signIns, eq(signIns.familyId, refreshTokens.familyId))
    .where(
      and(
        eq(refreshTokens.userId, userId),
        isNull(refreshTokens.rotatedAt),
        isNull(refreshTokens.revokedAt),
        sql`${refreshTokens.expiresAt} > now()`,
      ),
    )
    .orderBy(sql`${refreshTokens.createdAt} desc`);
  return rows.map((r) => ({
    id: r.familyId,
    device: deviceName(r.userAgent ?? undefined),
    ...(r.country ? { country: r.country } : {}),
    firstSeen: (r.firstSeen ?? r.lastSeen).toISOString(),
    lastSeen: r.lastSeen.toISOString(),
    current: r.familyId === currentSid,
  }));
}

type EndDeps = Pick<AppDeps, 'db' | 'revocations' | 'realtime' | 'log'>;

/**
 * Ends sign-ins of one account: one (`only`), or all but `keep`. The account is part of every
 * condition, so a sign-in of another account is never touched (it answers as not found). Their
 * tokens stop working on every process within a second, their sockets close, their devices stop
 * receiving pushes. Answers the sign-ins ended.
 */
export async function endSignInsOf(
  deps: EndDeps,
  userId: string,
  which: { only: string } | { keep?: string | undefined },
  reason: string,
): Promise<string[]> {
  const rows = await deps.db
    .update(refreshTokens)
    .set({ revokedAt: sql`now()` })
    .where(
      and(
        eq(refreshTokens.userId, userId),
        isNull(refreshTokens.revokedAt),
        'only' in which ? eq(refreshTokens.familyId, which.only) : which.keep ? ne(refreshTokens.familyId, which.keep) : undefined,
      ),
    )
    .returning({ familyId: refreshTokens.familyId });
  const ended = [...new Set(rows.map((r) => r.familyId))];
  for (const familyId of ended) {
    deps.revocations.revokeSignIn(familyId);
    deps.realtime.endSignIn(familyId, reason).catch((err: unknown) => deps.log.error({ err }, 'ending a sign-in failed'));
    await deps.db.delete(pushSubscriptions).where(and(eq(pushSubscriptions.sid, familyId), eq(pushSubscriptions.userId, userId)));
  }
  return ended;
}

/** A sign-in whose refresh tokens have all been swept (expired) has nothing left to list. */
export async function deleteEndedSignIns(db: Db): Promise<number> {
  const gone = await db.execute(
    sql`delete from ${signIns} s where not exists (select 1 from ${refreshTokens} r where r.family_id = s.family_id) returning 1`,
  );
  return gone.rows.length;
}
