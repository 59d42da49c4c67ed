import { sql } from 'drizzle-orm';
import { settingsSchema, type Settings } from '@parley/contract/people';
import type { Db } from './client.ts';
import { pushSubscriptions, users } from './schema.ts';
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

/**
 * A live account's settings and its devices' push subscriptions, in one query (what every
 * notification needs); null when there is no such account or it was deleted.
 */
export async function readSettingsAndDevices(
  db: Db,
  userId: string,
): Promise<{
  settings: Settings;
  devices: Array<{ id: string; endpoint: string; p256dh: string; auth: string; failures: number }>;
} | null> {
  if (!isUuid(userId)) return null;
  const { rows } = await db.execute<{ settings: unknown; devices: unknown }>(sql`
    select u.settings,
      coalesce(json_agg(json_build_object('id', s.id, 'endpoint', s.endpoint, 'p256dh', s.p256dh, 'auth', s.auth, 'failures', s.failures)) filter (where s.id is not null), '[]') as devices
    from ${users} u left join ${pushSubscriptions} s on s.user_id = u.id
    where u.id = ${userId} and u.deleted_at is null
    group by u.id`);
  const row = rows[0];
  if (!row) return null;
  const devices = typeof row.devices === 'string' ? (JSON.parse(row.devices) as unknown) : row.devices;
  return {
    settings: settingsFrom(typeof row.settings === 'string' ? JSON.parse(row.settings) : row.settings),
    devices: devices as Array<{ id: string; endpoint: string; p256dh: string; auth: string; failures: number }>,
  };
}
