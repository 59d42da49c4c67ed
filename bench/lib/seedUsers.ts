import { cp, mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { TokenUser } from '@parley/contract/auth';
import { accountParams, INSERT_ACCOUNTS } from '../../api/src/testing/accounts.ts';

/**
 * A copy of an initialised embedded database (a server's DATA_DIR) holding these users' accounts.
 * Simulated people need real accounts: a token for someone who does not exist would measure failed
 * inserts and logged errors instead of the work a real chat costs.
 */
export async function templateWithUsers(template: string, users: TokenUser[]): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'parley-bench-seeded-'));
  await cp(template, dir, { recursive: true });
  const db = new PGlite(path.join(dir, 'pglite'));
  try {
    await db.query(INSERT_ACCOUNTS, accountParams(users));
  } finally {
    await db.close();
  }
  return dir;
}
