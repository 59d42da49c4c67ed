import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { apiRoot } from '../platform/paths.ts';
import * as schema from './schema.ts';
import { PgliteThread } from './pgliteThread.ts';

/** Any fixed number; names Parley's migration lock among advisory locks. */
const MIGRATION_LOCK = 7_274_539;

export const migrationsFolder = path.join(apiRoot, 'src/db/migrations');

/** The database as the services see it: one Drizzle type for PGlite and PostgreSQL alike. */
export type Db = ReturnType<typeof drizzlePg<typeof schema>>;

export type Database = {
  db: Db;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
};

export type DatabaseOptions = {
  url?: string | undefined;
  dataDir: string;
  /** PGlite's shared_buffers (PostgreSQL units, e.g. '16MB'); its WebAssembly heap never shrinks. */
  pgliteSharedBuffers?: string;
  /** An idle pooled connection failed (the server restarted, or ended it): told here, never thrown. */
  onIdleError?: (err: Error) => void;
  /** The embedded database's thread ended unasked: every later query would fail. */
  onLost?: (err: Error) => void;
};

// Creating a PGlite cluster unpacks its whole data template in memory (about 600 MB at peak) and a
// WebAssembly heap never gives memory back, so the first start initialises in a short-lived child.
const INIT_PGLITE = `import { PGlite } from '@electric-sql/pglite';
const db = await PGlite.create(process.argv[1]);
await db.close();`;

async function initPgliteCluster(dir: string) {
  if (existsSync(path.join(dir, 'PG_VERSION'))) return;
  await new Promise<void>((resolve, reject) => {
    execFile(process.execPath, ['--input-type=module', '-e', INIT_PGLITE, dir], { cwd: apiRoot }, (err, _out, stderr) =>
      err ? reject(new Error(`Could not create the embedded database in ${dir}: ${stderr || err.message}`)) : resolve(),
    );
  });
}

/**
 * Opens the database: the PostgreSQL server at `url` when given, else PGlite stored in
 * `dataDir` (or in memory when dataDir is 'memory://'). Migrations run before it is returned.
 */
export async function openDatabase(opts: DatabaseOptions): Promise<Database> {
  if (opts.url) {
    const pool = new pg.Pool({ connectionString: opts.url, max: 10 });
    // Without a listener, an idle connection that PostgreSQL ends would crash the process; the
    // pool drops that connection and opens a new one when next needed.
    pool.on('error', (err) => opts.onIdleError?.(err));
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
  // The defaults of a PostgreSQL server (128 MB of buffers) are sized for a machine of its own.
  const startParams = [...PGlite.defaultStartParams, '-c', `shared_buffers=${opts.pgliteSharedBuffers ?? '16MB'}`];
  let dir = 'memory://';
  if (opts.dataDir !== 'memory://') {
    dir = path.resolve(opts.dataDir, 'pglite');
    await mkdir(dir, { recursive: true });
    await initPgliteCluster(dir);
  }
  // In a worker thread: its queries never hold the sockets' event loop.
  const client = new PgliteThread(dir, startParams, opts.onLost);
  try {
    await client.waitReady;
  } catch (err) {
    await client.close();
    throw err;
  }
  const db = drizzlePglite({ client: client as unknown as PGlite, schema });
  await migratePglite(db, { migrationsFolder });
  // Both drivers expose the same query builder; the node-postgres type is the one we name.
  return { db: db as unknown as Db, kind: 'pglite', close: () => client.close() };
}
