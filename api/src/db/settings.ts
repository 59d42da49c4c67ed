import { eq } from 'drizzle-orm';
import { settingsSchema, type Settings } from '@parley/contract/people';
import type { Db } from './client.ts';
import { users } from './schema.ts';
import { isUuid } from './accounts.ts';

/** Reads stored settings with the contract's defaults filled in; a field that no longer parses falls back to its default. */
export function settingsFrom(stored: unknown): Settings {
  const r = settingsSchema.safeParse(stored ?? {});
  if (r.success) return r.data;
  const fields = (stored ?? {}) as Record<string, unknown>;
  const kept = Object.fromEntries(
    Object.entries(fields).filter(([k, v]) => settingsSchema.shape[k as keyof Settings]?.safeParse(v).success),
  );
  return settingsSchema.parse(kept);
}

/** A live account's settings; null when there is no such account or it was deleted. */
export async function readSettings(db: Db, userId: string): Promise<Settings | null> {
  if (!isUuid(userId)) return null;
  const [row] = await db.select({ settings: users.settings, deletedAt: users.deletedAt }).from(users).where(eq(users.id, userId)).limit(1);
  if (!row || row.deletedAt) return null;
  return settingsFrom(row.settings);
}
