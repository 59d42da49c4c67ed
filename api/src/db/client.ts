import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from './schema.ts';

/** Any fixed number; names Parley's migration lock among advisory locks. */
const MIGRATION_LOCK = 7_274_539;

export const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/** The database as the services see it: one Drizzle type for PGlite and PostgreSQL alike. */
export type Db = ReturnType<typeof drizzlePg<typeof schema>>;

export type Database = {
  db: Db;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
};

/**
 * Opens the database: the PostgreSQL server at `url` when given, else PGlite stored in
 * `dataDir` (or in memory when dataDir is 'memory://'). Migrations run before it is returned.
 */
export async function openDatabase(opts: { url?: string | undefined; dataDir: string }): Promise<Database> {
  if (opts.url) {
    const pool = new pg.Pool({ connectionString: opts.url, max: 10 });
    // Replicas starting together must not migrate at once: hold an advisory lock on one connection.
    const conn = await pool.connect();
    try {
      await conn.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
      await migratePg(drizzlePg(conn, { schema }), { migrationsFolder });
    } finally {
      await conn.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
      conn.release();
    }
    const db = drizzlePg(pool, { schema });
    return { db, kind: 'postgres', close: () => pool.end() };
  }
  let client: PGlite;
  if (opts.dataDir === 'memory://') {
    client = new PGlite();
  } else {
    const dir = path.resolve(opts.dataDir, 'pglite');
    await mkdir(dir, { recursive: true });
    client = new PGlite(dir);
  }
  const db = drizzlePglite(client, { schema });
  await migratePglite(db, { migrationsFolder });
  // Both drivers expose the same query builder; the node-postgres type is the one we name.
  return { db: db as unknown as Db, kind: 'pglite', close: () => client.close() };
}
