import { cp, mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { TokenUser } from '@parley/contract/auth';

// Simulated people get real accounts: what the server records for a chat (encounters, missions)
// refers to its user, and a token for someone who does not exist would measure failed inserts and
// logged errors instead of the work a real chat costs.
const INSERT = `insert into users (id, username, age, gender, is_verified)
  select * from unnest($1::uuid[], $2::text[], $3::int[], $4::text[], $5::bool[]) on conflict do nothing`;
const params = (users: TokenUser[]) => [
  users.map((u) => u.userId),
  users.map((u) => u.username),
  users.map((u) => u.age),
  users.map((u) => u.gender),
  users.map((u) => u.isVerified),
];

/** A copy of an initialised embedded database (a server's DATA_DIR) holding these users' accounts. */
export async function templateWithUsers(template: string, users: TokenUser[]): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'parley-bench-seeded-'));
  await cp(template, dir, { recursive: true });
  const db = new PGlite(path.join(dir, 'pglite'));
  try {
    await db.query(INSERT, params(users));
  } finally {
    await db.close();
  }
  return dir;
}

/** These users' accounts in a PostgreSQL database the servers have migrated. */
export async function seedUsersPg(url: string, users: TokenUser[]): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (let i = 0; i < users.length; i += 5000) await client.query(INSERT, params(users.slice(i, i + 5000)));
  } finally {
    await client.end();
  }
}
