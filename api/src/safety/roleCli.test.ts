import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../platform/paths.ts';
import { servicesPass } from '../testing/passes.ts';

const run = promisify(execFile);
// Found from here, not from the directory it is typed in.
const TSX = pathToFileURL(path.join(repoRoot, 'node_modules/tsx/dist/loader.mjs')).href;

/** `npm run role` as an operator types it, from `cwd`, with the environment given. */
async function role(cwd: string, env: Record<string, string>, ...args: string[]): Promise<{ code: number; out: string }> {
  try {
    const r = await run(process.execPath, ['--import', TSX, path.join(repoRoot, 'api/src/safety/roleCli.ts'), ...args], {
      cwd,
      env: { ...process.env, DATABASE_URL: '', NODE_ENV: 'test', ...env },
    });
    return { code: 0, out: r.stdout + r.stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, out: err.stdout + err.stderr };
  }
}

// The embedded database's data folder, whatever DATABASE_URL says: the same in every pass.
describe.skipIf(servicesPass)('npm run role', () => {
  const dirs: string[] = [];
  afterAll(async () => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

  it('says where it looked when DATA_DIR holds no database, and creates none there', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'parley-role-'));
    dirs.push(dir);
    const r = await role(repoRoot, { DATA_DIR: dir }, 'ana', 'admin');
    expect(r.code).toBe(1);
    expect(r.out).toContain(`No Parley database in ${dir} (DATA_DIR)`);
    expect(existsSync(path.join(dir, 'pglite'))).toBe(false);
  });

  it("without DATA_DIR, typed anywhere, looks in npm start's folder (the repository's data)", async () => {
    const elsewhere = await mkdtemp(path.join(os.tmpdir(), 'parley-role-cwd-'));
    dirs.push(elsewhere);
    const r = await role(elsewhere, { DATA_DIR: '' }, 'nobody-here', 'admin');
    // Either there is a database in the repository's data folder, or it says it looked there; never in the cwd.
    expect(r.out).not.toContain(elsewhere);
    if (r.out.includes('No Parley database')) expect(r.out).toContain(path.join(repoRoot, 'data'));
    expect(existsSync(path.join(elsewhere, 'data'))).toBe(false);
  });

  it('refuses a bad command line with its usage', async () => {
    const r = await role(repoRoot, {}, 'ana', 'king');
    expect(r.code).toBe(2);
    expect(r.out).toContain('Usage: npm run role');
  });
});
