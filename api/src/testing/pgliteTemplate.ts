import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { cp, mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { migrationsFolder } from '../db/client.ts';
import { apiRoot } from '../platform/paths.ts';

// Creating a PGlite cluster and running every migration costs seconds of CPU and a WebAssembly heap
// of about 900 MB; copying a migrated data directory costs a fraction of a second. The template is
// built once per set of migrations (and PGlite version) and kept in the temporary folder.

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? filesUnder(path.join(dir, e.name)) : [path.join(dir, e.name)]))
    .sort();
}

function pgliteVersion(): string {
  for (let dir = apiRoot; ; dir = path.dirname(dir)) {
    const pkg = path.join(dir, 'node_modules/@electric-sql/pglite/package.json');
    if (existsSync(pkg)) return (JSON.parse(readFileSync(pkg, 'utf8')) as { version: string }).version;
    if (path.dirname(dir) === dir) throw new Error('@electric-sql/pglite is not installed');
  }
}

/** A short hash of every migration file: names a template built from exactly these migrations. */
export function migrationsKey(): string {
  const h = createHash('sha256');
  for (const file of filesUnder(migrationsFolder)) h.update(path.relative(migrationsFolder, file)).update('\0').update(readFileSync(file));
  return h.digest('hex').slice(0, 16);
}

const templateKey = () => createHash('sha256').update(`pglite ${pgliteVersion()}\n${migrationsKey()}`).digest('hex').slice(0, 16);

// Run in a child: the heap of a fresh cluster's creation would otherwise stay with the test process.
const BUILD = `const { openDatabase } = await import(process.argv[1]);
const database = await openDatabase({ dataDir: process.argv[2] });
await database.close();`;

let building: Promise<string> | undefined;

/**
 * The path of a migrated PGlite data directory to copy, never to open in place: built on first
 * use (about 10 s) and shared by every test process and run with the same migrations.
 */
export function pgliteTemplate(): Promise<string> {
  building ??= (async () => {
    const dir = path.join(os.tmpdir(), `parley-pglite-template-${templateKey()}`);
    if (existsSync(path.join(dir, 'PG_VERSION'))) return dir;
    const work = await mkdtemp(path.join(os.tmpdir(), 'parley-pglite-build-'));
    try {
      await new Promise<void>((resolve, reject) => {
        execFile(
          process.execPath,
          ['--import', 'tsx', '--input-type=module', '-e', BUILD, path.join(apiRoot, 'src/db/client.ts'), work],
          { cwd: apiRoot },
          (err, _out, stderr) =>
            err ? reject(new Error(`Could not build the test database template: ${stderr || err.message}`)) : resolve(),
        );
      });
      // Another process may have finished the same template first: then its copy is kept.
      await rename(path.join(work, 'pglite'), dir).catch((err: NodeJS.ErrnoException) => {
        if (!existsSync(path.join(dir, 'PG_VERSION'))) throw err;
      });
    } finally {
      await rm(work, { recursive: true, force: true });
    }
    return dir;
  })();
  building.catch(() => (building = undefined));
  return building;
}

/** Fills `dataDir` with a copy of the migrated template, as a server's DATA_DIR (its `pglite` folder). */
export async function seedPgliteDataDir(dataDir: string): Promise<void> {
  const target = path.join(dataDir, 'pglite');
  await mkdir(dataDir, { recursive: true });
  await cp(await pgliteTemplate(), target, { recursive: true });
}
