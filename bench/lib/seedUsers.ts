import { cp, mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { TokenUser } from '@parley/contract/auth';
import type { BenchProfile } from './population.ts';
import { accountParams, INSERT_ACCOUNTS } from '../../api/src/testing/accounts.ts';

/**
 * A copy of an initialised embedded database (a server's DATA_DIR) holding these users' accounts.
 * Simulated people need real accounts: a token for someone who does not exist would measure failed
 * inserts and logged errors instead of the work a real chat costs.
 */
export async function templateWithUsers(template: string, users: TokenUser[], profiles?: BenchProfile[]): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'parley-bench-seeded-'));
  await cp(template, dir, { recursive: true });
  const db = new PGlite(path.join(dir, 'pglite'));
  try {
    await db.query(INSERT_ACCOUNTS, accountParams(users));
    if (profiles) await db.query(UPDATE_PROFILES, profileParams(users, profiles));
  } finally {
    await db.close();
  }
  return dir;
}

/** The languages and country of the simulated accounts, as their owners would have set them. */
export const UPDATE_PROFILES = `update users set languages = v.languages::jsonb, learning = v.learning::jsonb, country = v.country
  from unnest($1::uuid[], $2::text[], $3::text[], $4::text[]) as v(id, languages, learning, country) where users.id = v.id`;

export const profileParams = (users: TokenUser[], profiles: BenchProfile[]) => [
  users.map((u) => u.userId),
  profiles.map((p) => JSON.stringify(p.speaks)),
  profiles.map((p) => JSON.stringify(p.learning)),
  profiles.map((p) => p.country),
];
