import { and, eq, gt, isNotNull, isNull, or } from 'drizzle-orm';
import type { Db } from './client.ts';
import { accountDevices, users } from './schema.ts';

/** A browser's device id: the value of its long-lived device cookie. */
export const DEVICE_ID = /^[A-Za-z0-9_-]{22}$/;

/** Answers whether this browser was new to the account. */
export async function recordDevice(db: Db, deviceId: string, userId: string): Promise<boolean> {
  const rows = await db
    .insert(accountDevices)
    .values({ deviceId, userId })
    .onConflictDoNothing()
    .returning({ deviceId: accountDevices.deviceId });
  return rows.length > 0;
}

/** Whether an account banned (or suspended, for now) was used from this browser: a new account from it is refused. */
export async function deviceBanned(db: Db, deviceId: string, now = new Date()): Promise<boolean> {
  const rows = await db
    .select({ id: users.id })
    .from(accountDevices)
    .innerJoin(users, eq(users.id, accountDevices.userId))
    .where(
      and(
        eq(accountDevices.deviceId, deviceId),
        isNotNull(users.bannedAt),
        or(isNull(users.suspendedUntil), gt(users.suspendedUntil, now)),
      ),
    )
    .limit(1);
  return rows.length > 0;
}

/** The device ids (cookies) of the browsers an account was used from. */
export async function devicesOf(db: Db, userId: string): Promise<string[]> {
  const rows = await db.select({ deviceId: accountDevices.deviceId }).from(accountDevices).where(eq(accountDevices.userId, userId));
  return rows.map((r) => r.deviceId);
}
