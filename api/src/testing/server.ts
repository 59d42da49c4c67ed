import { mkdtemp, rm } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import pino from 'pino';
import { loadConfig } from '../platform/config.ts';
import { startServer, type RunningServer, type ServerOptions } from '../server.ts';

import { openDatabase } from '../db/client.ts';
import { migrationsKey, seedPgliteDataDir } from './pgliteTemplate.ts';
import { signupAt } from './proofOfWork.ts';

/** For tests that mint tokens of their own (expired, or signed with another key). */
export { accessTokens } from '../auth/tokens.ts';

export type TestServer = RunningServer & {
  /** fetch() against this server: `api('/api/health')`. */
  api(pathname: string, init?: RequestInit & { json?: unknown }): Promise<Response>;
  /** POST /api/auth/signup with a solved proof of work, as the sign-up form sends it. */
  signup(json: Record<string, unknown>, init?: RequestInit): Promise<Response>;
  dataDir: string;
};

/** Any fixed number: names the lock held while the migrated PostgreSQL template is made. */
const TEMPLATE_LOCK = 7_274_540;
let postgresTemplate: Promise<string> | undefined;

/**
 * A database on the PostgreSQL server with every migration applied, made once per set of
 * migrations (under an advisory lock, as test processes start together) and never connected to
 * again: CREATE DATABASE … TEMPLATE copies it in a fraction of the time migrating takes.
 */
function migratedTemplate(adminUrl: string): Promise<string> {
  postgresTemplate ??= (async () => {
    const name = `parley_template_${migrationsKey()}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    try {
      await admin.query('select pg_advisory_lock($1)', [TEMPLATE_LOCK]);
      const { rowCount } = await admin.query('select 1 from pg_database where datname = $1', [name]);
      if (!rowCount) {
        // Migrated under another name and renamed when complete: a template is never half made.
        const building = `${name}_build`;
        await admin.query(`drop database if exists ${building} with (force)`);
        await admin.query(`create database ${building}`);
        const u = new URL(adminUrl);
        u.pathname = `/${building}`;
        const database = await openDatabase({ url: u.toString(), dataDir: 'unused' });
        await database.close();
        // The closed pool's backends may take a moment to leave the database being renamed.
        for (let attempt = 1; ; attempt++) {
          try {
            await admin.query(`alter database ${building} rename to ${name}`);
            break;
          } catch (err) {
            if (attempt >= 50) throw err;
            await new Promise((r) => setTimeout(r, 100));
          }
        }
      }
    } finally {
      await admin.query('select pg_advisory_unlock($1)', [TEMPLATE_LOCK]).catch(() => undefined);
      await admin.end();
    }
    return name;
  })();
  postgresTemplate.catch(() => (postgresTemplate = undefined));
  return postgresTemplate;
}

/**
 * With DATABASE_URL set, a fresh database on that PostgreSQL server and the step that drops it;
 * without, nothing (the caller uses PGlite). The database is already migrated (a copy of a
 * migrated template) unless `migrated: false` asks for an empty one.
 */
export async function testPostgres(
  id = randomBytes(6).toString('hex'),
  opts: { migrated?: boolean } = {},
): Promise<{ url?: string; drop?: () => Promise<void> }> {
  if (!process.env.DATABASE_URL) return {};
  const template = opts.migrated === false ? undefined : await migratedTemplate(process.env.DATABASE_URL);
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
  const name = `parley_test_${id}`;
  await admin.query(`create database ${name}${template ? ` template ${template}` : ''}`);
  await admin.end();
  const u = new URL(process.env.DATABASE_URL);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

/**
 * A real server on a random port for integration tests. PGlite in a fresh folder (a copy of a
 * migrated template) by default; with DATABASE_URL set, a fresh database on that PostgreSQL server
 * (dropped afterwards); with REDIS_URL set, Redis under a key prefix of its own.
 */
export async function startTestServer(env: Record<string, string> = {}, opts: ServerOptions = {}): Promise<TestServer> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'parley-test-'));
  const id = randomBytes(6).toString('hex');
  // DATABASE_URL '' in env: PGlite even when the suite runs on PostgreSQL.
  const { url: dbUrl, drop: dropDb } = env.DATABASE_URL === '' ? {} : await testPostgres(id);
  // On PGlite, a copy of the migrated template: the server's own migration step then finds nothing to do.
  if (!dbUrl && !env.DATABASE_URL) await seedPgliteDataDir(dataDir);
  const cfg = loadConfig({
    NODE_ENV: 'test',
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    SERVE_PWA: 'false',
    LOG_LEVEL: 'silent',
    REDIS_KEY_PREFIX: `test${id}:`,
    // Every check of a real proof of work, at a cost that keeps suites of hundreds of sign-ups quick.
    POW_DIFFICULTY: '1000',
    ...(dbUrl ? { DATABASE_URL: dbUrl } : {}),
    ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
    ...env,
  });
  const server = await startServer(cfg, { log: pino({ level: 'silent' }), ...opts });
  const close = server.close;
  return {
    ...server,
    dataDir,
    api(pathname, init = {}) {
      const { json, ...rest } = init;
      const headers = new Headers(rest.headers);
      if (json !== undefined) headers.set('content-type', 'application/json');
      return fetch(server.url + pathname, { ...rest, headers, body: json !== undefined ? JSON.stringify(json) : rest.body });
    },
    signup: (json, init) => signupAt(server.url, json, init),
    async close() {
      await close();
      await dropDb?.();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
