import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { apiRoot } from '../platform/paths.ts';
import * as schema from './schema.ts';
import { PgliteThread } from './pgliteThread.ts';
import { queryDone } from '../platform/metrics.ts';

/** Any fixed number; names Parley's migration lock among advisory locks. */
const MIGRATION_LOCK = 7_274_539;

/** Connections to a PostgreSQL server, per process. */
export const POOL_SIZE = 10;

export const migrationsFolder = path.join(apiRoot, 'src/db/migrations');

/** The database as the services see it: one Drizzle type for PGlite and PostgreSQL alike. */
export type Db = ReturnType<typeof drizzlePg<typeof schema>>;

export type Database = {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** For the metrics: PostgreSQL's pool, or the embedded database thread's memory. */
  pool?(): { total: number; idle: number; waiting: number };
  memory?(): Promise<{ wasmBytes: number; heapBytes: number }>;
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
 * Times every statement of a pooled connection for the metrics. The pool calls `query` with a
 * callback, Drizzle without one (a promise); a submittable (a cursor) is passed through untimed.
 */
function timeQueries(conn: pg.PoolClient) {
  const query = conn.query.bind(conn) as (...args: unknown[]) => unknown;
  (conn as { query: unknown }).query = (...args: unknown[]) => {
    const first = args[0] as { submit?: unknown } | undefined;
    if (typeof first === 'object' && first !== null && typeof first.submit === 'function') return query(...args);
    const sent = performance.now();
    const last = args.length - 1;
    const callback = args[last];
    if (typeof callback === 'function') {
      args[last] = (...results: unknown[]) => {
        queryDone('postgres', sent);
        return (callback as (...r: unknown[]) => unknown)(...results);
      };
      return query(...args);
    }
    const done = () => queryDone('postgres', sent);
    const r = query(...args) as Promise<unknown>;
    r.then(done, done);
    return r;
  };
}

/**
 * Opens the database: the PostgreSQL server at `url` when given, else PGlite stored in
 * `dataDir` (or in memory when dataDir is 'memory://'). Migrations run before it is returned.
 */
export async function openDatabase(opts: DatabaseOptions): Promise<Database> {
  if (opts.url) {
    // A pool of fixed size (the rooms open and warm it at start): a connection closed when idle
    // would be a connect and a re-plan of every prepared statement, paid by the next burst.
    const pool = new pg.Pool({ connectionString: opts.url, max: POOL_SIZE, min: POOL_SIZE, allowExitOnIdle: true });
    // Without a listener, an idle connection that PostgreSQL ends would crash the process; the
    // pool drops that connection and opens a new one when next needed.
    pool.on('error', (err) => opts.onIdleError?.(err));
    pool.on('connect', timeQueries);
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
    return {
      db,
      kind: 'postgres',
      pool: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
      close: () => pool.end(),
    };
  }
  // The embedded database's modules load only when it is the one in use.
  const [{ PGlite }, { drizzle: drizzlePglite }, { migrate: migratePglite }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('drizzle-orm/pglite'),
    import('drizzle-orm/pglite/migrator'),
  ]);
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
  return { db: db as unknown as Db, kind: 'pglite', memory: () => client.memory(), close: () => client.close() };
}
