import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { openDatabase, type Database } from '../db/client.ts';
import { seedPgliteDataDir } from './pgliteTemplate.ts';
import { testPostgres } from './server.ts';

/**
 * A migrated database of a test's own, for tests of a store without a server: a fresh database on
 * the PostgreSQL server when DATABASE_URL is set (unless `postgres: false`), else a copy of the
 * migrated PGlite template. `close()` also drops or removes it.
 */
export async function openTestDatabase(opts: { postgres?: boolean } = {}): Promise<Database> {
  if (opts.postgres !== false) {
    const pg = await testPostgres();
    if (pg.url) {
      const database = await openDatabase({ url: pg.url, dataDir: 'unused' });
      return { ...database, close: () => database.close().finally(() => pg.drop?.()) };
    }
  }
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'parley-testdb-'));
  await seedPgliteDataDir(dataDir);
  const database = await openDatabase({ dataDir });
  return { ...database, close: () => database.close().finally(() => rm(dataDir, { recursive: true, force: true })) };
}
