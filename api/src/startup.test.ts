import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { openDatabase, migrationsFolder, type Database } from './db/client.ts';
import { loadConfig } from './platform/config.ts';
import { repoRoot, startServer } from './server.ts';
import { testPostgres } from './testing/server.ts';
import { signupAt } from './testing/proofOfWork.ts';
import { servicesPass } from './testing/passes.ts';
import { startNodeFlags } from '../../scripts/start-flags.mjs';
import { ensureServerBuild } from '../../scripts/build-server.mjs';

// Each opens PGlite (WebAssembly PostgreSQL) more than once; on a busy two-core machine that takes a while.
const SLOW_MS = 120_000;
const journal = JSON.parse(await readFile(path.join(migrationsFolder, 'meta/_journal.json'), 'utf8')) as { entries: unknown[] };
const tmpDirs: string[] = [];
const tmp = async (prefix: string) => {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  tmpDirs.push(dir);
  return dir;
};
afterAll(async () => {
  for (const dir of tmpDirs) await rm(dir, { recursive: true, force: true });
});

/** Every table of the schema is there and every migration of the journal is recorded. */
async function expectMigrated(database: Database) {
  const tables = await database.db.execute<{ table_name: string }>(
    sql`select table_name from information_schema.tables where table_schema = 'public' order by table_name`,
  );
  const names = tables.rows.map((r) => r.table_name);
  for (const t of ['users', 'refresh_tokens', 'user_blocks', 'support_requests', 'topic_search_counts']) expect(names).toContain(t);
  const applied = await database.db.execute<{ n: number }>(sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
  expect(applied.rows[0]!.n).toBe(journal.entries.length);
}

describe('migrations', () => {
  it.skipIf(servicesPass)(
    'apply on an empty PGlite database, and again without effect',
    async () => {
      const dir = await tmp('parley-migrate-');
      let database = await openDatabase({ dataDir: dir });
      await expectMigrated(database);
      await database.close();
      database = await openDatabase({ dataDir: dir });
      await expectMigrated(database);
      await database.close();
    },
    SLOW_MS,
  );

  it.skipIf(!process.env.DATABASE_URL)(
    'apply on an empty PostgreSQL database (DATABASE_URL)',
    async () => {
      const pg = await testPostgres(undefined, { migrated: false });
      try {
        const database = await openDatabase({ url: pg.url, dataDir: 'unused' });
        expect(database.kind).toBe('postgres');
        await expectMigrated(database);
        await database.close();
      } finally {
        await pg.drop?.();
      }
    },
    SLOW_MS,
  );
});

describe.skipIf(servicesPass)('restart with the same DATA_DIR', () => {
  it(
    'keeps users and secrets; secrets.json stays mode 600',
    async () => {
      const dataDir = await tmp('parley-restart-');
      // The embedded default, whatever this run's DATABASE_URL/REDIS_URL say.
      const cfg = loadConfig({
        NODE_ENV: 'test',
        PORT: '0',
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        SERVE_PWA: 'false',
        LOG_LEVEL: 'silent',
      });
      const log = pino({ level: 'silent' });
      const account = { username: 'Persistent', password: 'a password that lasts', age: 40, gender: 'male' };

      let server = await startServer(cfg, { log });
      expect(server.deps.dbKind).toBe('pglite');
      const signup = await signupAt(server.url, account);
      expect(signup.status).toBe(201);
      const secretsFile = path.join(dataDir, 'secrets.json');
      const secretsBefore = await readFile(secretsFile, 'utf8');
      await server.close();

      server = await startServer(cfg, { log });
      try {
        const login = await fetch(`${server.url}/api/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username: account.username, password: account.password }),
        });
        expect(login.status).toBe(200);
        expect(await readFile(secretsFile, 'utf8')).toBe(secretsBefore);
        expect((await stat(secretsFile)).mode & 0o777).toBe(0o600);
        const stored = JSON.parse(secretsBefore) as Record<string, string>;
        expect(Object.keys(stored).sort()).toEqual(['jwtSecret', 'vapidPrivateKey', 'vapidPublicKey']);
        // A token signed before the restart still verifies: the signing key was reused.
        const { accessToken } = (await signup.json()) as { accessToken: string };
        expect(await server.deps.tokens.verify(accessToken)).toMatchObject({ username: 'Persistent' });
      } finally {
        await server.close();
      }
    },
    SLOW_MS,
  );
});

describe('start-up of the built server (npm start: node [flags] scripts/start.mjs)', () => {
  it(
    'serves /api/health and / on a fresh DATA_DIR, then exits 0 on SIGTERM',
    async () => {
      const dataDir = await tmp('parley-start-');
      const pwaDist = await tmp('parley-start-pwa-');
      const html = '<!doctype html><html lang="en"><title>Parley start-up test</title><div id="root"></div></html>';
      await writeFile(path.join(pwaDist, 'index.html'), html);
      const port = await freePort();

      const env: NodeJS.ProcessEnv = {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        SKIP_PWA_BUILD: 'true',
        PWA_DIST: pwaDist,
        LOG_LEVEL: 'warn',
        NODE_ENV: 'production',
      };
      // The embedded default: no outside database or Redis, whatever this run was given.
      delete env.DATABASE_URL;
      delete env.REDIS_URL;
      delete env.PUBLIC_URL;
      const started = npmStart(env);
      const { child, exited } = started;

      try {
        const base = `http://127.0.0.1:${port}`;
        // A first start builds the server bundle when stale and creates the cluster: on a machine
        // busy with other builds that alone has taken over 45 s.
        const health = await poll(`${base}/api/health`, SLOW_MS - 20_000, () => child.exitCode !== null);
        expect(health?.status, started.output()).toBe(200);
        expect(await health!.json()).toMatchObject({ status: 'ok', db: 'pglite' });
        expect(started.output()).toContain(`Parley is running at http://localhost:${port}`);

        const home = await fetch(`${base}/`);
        expect(home.status).toBe(200);
        expect(home.headers.get('content-type')).toMatch(/^text\/html/);
        expect(await home.text()).toBe(html);
        expect((await stat(path.join(dataDir, 'secrets.json'))).mode & 0o777).toBe(0o600);

        // main.ts exits 1 when shutting down takes over SHUTDOWN_GRACE_MS, so 0 means graceful and in
        // time; alone (no Redis) it has nothing to drain and closes at once.
        const stopping = Date.now();
        child.kill('SIGTERM');
        const { code } = await exited;
        expect(code, started.output()).toBe(0);
        expect(Date.now() - stopping).toBeLessThan(5000);
      } finally {
        if (child.exitCode === null) child.kill('SIGKILL');
      }
    },
    SLOW_MS,
  );

  it(
    'logs a start that fails with its stack in the TypeScript sources, and exits non-zero',
    async () => {
      // A database nothing listens on: the start fails at once, before any cluster is made.
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        PORT: String(await freePort()),
        HOST: '127.0.0.1',
        DATA_DIR: await tmp('parley-start-fail-'),
        DATABASE_URL: `postgres://postgres@127.0.0.1:${await freePort()}/nowhere`,
        SKIP_PWA_BUILD: 'true',
        SERVE_PWA: 'false',
        LOG_LEVEL: 'warn',
        NODE_ENV: 'production',
      };
      delete env.REDIS_URL;
      const started = npmStart(env);
      const { code } = await started.exited;
      const output = started.output();
      expect(code, output).not.toBe(0);
      const fatal = output
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as { level: number; err?: { stack: string } })
        .find((l) => l.level === 60);
      expect(fatal?.err?.stack, output).toMatch(/at async startServer \(\/.*api\/src\/server\.ts:\d+:\d+\)/);
    },
    SLOW_MS,
  );

  it('runs with one V8 helper thread and a bounded old generation, and the Dockerfile starts it with the same Node flags', async () => {
    const flags = startNodeFlags(repoRoot);
    expect(flags).toContain('--v8-pool-size=1');
    expect(flags).toContain('--heap-growing-percent=30');
    const dockerfile = await readFile(path.join(repoRoot, 'Dockerfile'), 'utf8');
    const cmd = /^CMD (\[.*\])$/m.exec(dockerfile)?.[1];
    expect(cmd && JSON.parse(cmd)).toEqual(['node', ...flags, 'scripts/start.mjs']);
  });

  it(
    'runs from an ASCII bundle, which V8 holds at one byte a character',
    async () => {
      const bundle = await readFile(await ensureServerBuild());
      const wide = bundle.findIndex((byte) => byte > 0x7f);
      expect(wide, `a non-ASCII byte at ${wide}: ${bundle.subarray(Math.max(0, wide - 60), wide + 20).toString()}`).toBe(-1);
    },
    SLOW_MS,
  );
});

/** The server started as `npm start` starts it, with its output collected and its exit awaited. */
function npmStart(env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, [...startNodeFlags(repoRoot), 'scripts/start.mjs'], {
    cwd: repoRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, exited, output: () => output };
}

async function freePort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const { port } = srv.address() as net.AddressInfo;
  await new Promise((resolve) => srv.close(resolve));
  return port;
}

/** Asks until the server answers, it gives up, or time runs out. */
async function poll(url: string, ms: number, gaveUp: () => boolean): Promise<Response | undefined> {
  const until = Date.now() + ms;
  while (Date.now() < until && !gaveUp()) {
    try {
      return await fetch(url);
    } catch {
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  return undefined;
}
