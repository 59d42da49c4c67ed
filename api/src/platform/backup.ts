import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../db/client.ts';

const run = promisify(execFile);

/**
 * Backups of the embedded database: the whole DATA_DIR (PGlite's cluster, the generated secrets,
 * anything else kept there) in one .tar.gz with a manifest. PGlite is opened by one process at a
 * time, so the server must be stopped: a copy of files being written would not be consistent.
 * Uploaded images are rows of the database (every replica serves them), so they come along.
 * PostgreSQL (DATABASE_URL) is backed up with pg_dump instead (README, "Backups").
 */
export const MANIFEST = 'parley-backup.json';
export type Manifest = { format: 1; createdAt: string; database: 'pglite'; entries: string[] };

export class BackupError extends Error {}

/** PostgreSQL writes postmaster.pid while the cluster is open and removes it on a clean close. */
export function embeddedInUse(dataDir: string): boolean {
  return existsSync(path.join(dataDir, 'pglite', 'postmaster.pid'));
}

const IN_USE = (dataDir: string) =>
  `The embedded database in ${path.resolve(dataDir)} is open: stop Parley first (the database is written by one process at a time, ` +
  'so a copy taken while it runs would not be consistent). If Parley is not running (it was killed), start it and stop it ' +
  'once so that the database closes cleanly, then try again.';

/** Writes DATA_DIR into `file` (a .tar.gz); answers what it holds. */
export async function backup(dataDir: string, file: string): Promise<Manifest> {
  const dir = path.resolve(dataDir);
  if (!existsSync(path.join(dir, 'pglite', 'PG_VERSION'))) throw new BackupError(`No embedded database in ${dir} (DATA_DIR) to back up.`);
  if (embeddedInUse(dir)) throw new BackupError(IN_USE(dir));
  const entries = (await readdir(dir)).filter((e) => !e.startsWith('before-restore-')).sort();
  const manifest: Manifest = { format: 1, createdAt: new Date().toISOString(), database: 'pglite', entries };
  const staging = await mkdtemp(path.join(os.tmpdir(), 'parley-backup-'));
  const out = path.resolve(file);
  try {
    await writeFile(path.join(staging, MANIFEST), JSON.stringify(manifest, null, 2));
    await mkdir(path.dirname(out), { recursive: true });
    // Written under a temporary name and renamed when whole: a failed backup never looks like one.
    const partial = `${out}.partial`;
    // The secrets are in it: the archive is readable by its owner only, from its first byte.
    await rm(partial, { force: true });
    await writeFile(partial, '', { mode: 0o600 });
    await run('tar', ['-czf', partial, '-C', staging, MANIFEST, '-C', dir, ...entries.map((e) => `./${e}`)]);
    if (embeddedInUse(dir)) {
      await rm(partial, { force: true });
      throw new BackupError(IN_USE(dir));
    }
    await rename(partial, out);
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  return manifest;
}

export type Restored = { manifest: Manifest; accounts: number; rooms: number; messages: number; setAside?: string };

/**
 * Unpacks a backup into DATA_DIR, then opens the database there (migrating it to this version,
 * as the server would) and counts what it holds. An existing database is refused unless `force`,
 * which moves what DATA_DIR held into DATA_DIR/before-restore-<time> first.
 */
export async function restore(file: string, dataDir: string, opts: { force?: boolean } = {}): Promise<Restored> {
  const dir = path.resolve(dataDir);
  const archive = path.resolve(file);
  if (!existsSync(archive)) throw new BackupError(`No backup at ${archive}.`);
  const names = (
    await run('tar', ['-tzf', archive], { maxBuffer: 64 * 1024 * 1024 }).catch(() => {
      throw new BackupError(`${archive} is not a readable .tar.gz backup.`);
    })
  ).stdout
    .split('\n')
    .filter(Boolean);
  if (!names.some((n) => n === MANIFEST || n === `./${MANIFEST}`))
    throw new BackupError(`${archive} is not a Parley backup (no ${MANIFEST}).`);
  if (names.some((n) => path.isAbsolute(n) || n.split('/').includes('..')))
    throw new BackupError(`${archive} has entries outside its own folder; refusing to unpack it.`);

  let setAside: string | undefined;
  await mkdir(dir, { recursive: true });
  const present = (await readdir(dir)).filter((e) => !e.startsWith('before-restore-'));
  if (present.length > 0) {
    if (embeddedInUse(dir)) throw new BackupError(IN_USE(dir));
    if (!opts.force)
      throw new BackupError(
        `${dir} (DATA_DIR) is not empty. Restore into an empty DATA_DIR, or pass --force to move what it holds into ${dir}/before-restore-<time> first.`,
      );
    // Inside DATA_DIR: a mounted volume cannot be renamed, and its entries cannot move to another device.
    setAside = path.join(dir, `before-restore-${new Date().toISOString().replace(/[:.]/g, '-')}`);
    await mkdir(setAside);
    for (const e of present) await rename(path.join(dir, e), path.join(setAside, e));
  }
  await run('tar', ['-xzf', archive, '-C', dir, '--no-same-owner']);
  const manifest = JSON.parse(await readFile(path.join(dir, MANIFEST), 'utf8')) as Manifest;
  await rm(path.join(dir, MANIFEST));
  if (manifest.format !== 1 || manifest.database !== 'pglite')
    throw new BackupError(`${archive} is a backup format this version cannot read.`);

  const database = await openDatabase({ dataDir: dir });
  try {
    const count = async (table: string) => {
      const r = await database.db.execute(sql.raw(`select count(*)::int as n from ${table}`));
      return Number((r.rows[0] as { n: number }).n);
    };
    return {
      manifest,
      accounts: await count('users'),
      rooms: await count('stored_rooms'),
      messages: await count('room_messages'),
      setAside,
    };
  } finally {
    await database.close();
  }
}
