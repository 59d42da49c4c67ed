import { eq, sql } from 'drizzle-orm';
import { loadConfig } from '../platform/config.ts';
import { openDatabase } from '../db/client.ts';
import { moderationActions, users } from '../db/schema.ts';

/**
 * `npm run role -- <username> <user|moderator|admin>`: gives or takes a role from the command
 * line, where the first admin comes from. With the embedded database, stop the server first
 * (PGlite is opened by one process at a time); with DATABASE_URL it works while Parley runs.
 */
const ROLES = ['user', 'moderator', 'admin'] as const;
const [username, role] = process.argv.slice(2);
if (!username || !ROLES.includes(role as (typeof ROLES)[number])) {
  console.error('Usage: npm run role -- <username> <user|moderator|admin>');
  process.exit(2);
}
const cfg = loadConfig();
const database = await openDatabase({ url: cfg.DATABASE_URL, dataDir: cfg.DATA_DIR, pgliteSharedBuffers: cfg.PGLITE_SHARED_BUFFERS });
try {
  const [target] = await database.db
    .update(users)
    .set({ role: role as (typeof ROLES)[number] })
    .where(sql`lower(${users.username}) = lower(${username})`)
    .returning({ id: users.id, username: users.username });
  if (!target) {
    console.error(`No user named ${username}.`);
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
