import { existsSync } from 'node:fs';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { embeddedInUse } from '../platform/backup.ts';
import { loadConfig } from '../platform/config.ts';
import { repoRoot } from '../platform/paths.ts';
import { openDatabase } from '../db/client.ts';
import { moderationActions, users } from '../db/schema.ts';

/**
 * `npm run role -- <username> <user|moderator|admin>`: gives or takes a role from the command
 * line, where the first admin comes from. With the embedded database, stop the server first
 * (PGlite is opened by one process at a time); with DATABASE_URL it works while Parley runs.
 * It says which database it looked in, and never creates one.
 */
const ROLES = ['user', 'moderator', 'admin'] as const;
const [username, role] = process.argv.slice(2);
if (!username || !ROLES.includes(role as (typeof ROLES)[number])) {
  console.error('Usage: npm run role -- <username> <user|moderator|admin>');
  process.exit(2);
}
const cfg = loadConfig();
// Without DATA_DIR, the folder `npm start` uses: it runs from the repository root, wherever this was typed.
const dataDir = process.env.DATA_DIR ? path.resolve(cfg.DATA_DIR) : path.join(repoRoot, 'data');
const where = cfg.DATABASE_URL ? 'the PostgreSQL database of DATABASE_URL' : `the embedded database in ${dataDir}`;
if (!cfg.DATABASE_URL) {
  // Opening an empty folder would create a new, empty database there and find nobody in it.
  if (!existsSync(path.join(dataDir, 'pglite', 'PG_VERSION'))) {
    console.error(
      `No Parley database in ${dataDir}${process.env.DATA_DIR ? ' (DATA_DIR)' : " (npm start's default)"}. ` +
        'Set DATA_DIR to the folder Parley runs with (or DATABASE_URL for PostgreSQL), or start Parley once first.',
    );
    process.exit(1);
  }
  if (embeddedInUse(dataDir)) {
    console.error(`${where} is open: stop Parley first (the embedded database is written by one process at a time), then run this again.`);
    process.exit(1);
  }
}
const database = await openDatabase({ url: cfg.DATABASE_URL, dataDir, pgliteSharedBuffers: cfg.PGLITE_SHARED_BUFFERS });
try {
  const [target] = await database.db
    .update(users)
    .set({ role: role as (typeof ROLES)[number] })
    .where(sql`lower(${users.username}) = lower(${username})`)
    .returning({ id: users.id, username: users.username });
  if (!target) {
    console.error(`No user named ${username} in ${where}.`);
    process.exitCode = 1;
  } else {
    await database.db
      .insert(moderationActions)
      .values({ userId: target.id, moderatorId: null, action: 'role', note: `role: ${role} (command line)` });
    const [row] = await database.db.select({ role: users.role }).from(users).where(eq(users.id, target.id));
    console.log(`${target.username} is now ${row!.role}.`);
  }
} finally {
  await database.close();
}
