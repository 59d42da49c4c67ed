// The server the end-to-end specs run against: the built PWA and API on a fresh database.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
process.env.DATA_DIR = mkdtempSync(path.join(os.tmpdir(), 'parley-e2e-'));
process.env.NODE_ENV ??= 'test';
process.env.LOG_LEVEL ??= 'warn';
process.env.SKIP_PWA_BUILD = 'true';
// Every spec signs its people up from this one machine's address.
process.env.SIGNUPS_PER_ADDRESS ??= '10000';
// Sign-ups and sign-ins still solve a proof of work, an easy one: the specs sign up hundreds of
// people, and the real difficulty's solve time is measured by `npm run bench:pow`, not here.
process.env.POW_DIFFICULTY ??= '1000';
// A chat of 2 s counts as "a chat of a minute" for missions, so a spec can complete a quest quickly.
process.env.MISSION_MIN_CHAT_SECONDS ??= '2';

// The embedded database starts as a copy of the unit tests' migrated template (built once per set
// of migrations): creating a cluster and migrating it takes seconds of CPU and ~900 MB at peak.
if (!process.env.DATABASE_URL) {
  const template = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      '--input-type=module',
      '-e',
      "const t = await import('./api/src/testing/pgliteTemplate.ts'); console.log(await t.pgliteTemplate());",
    ],
    { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
  );
  if (template.status !== 0) throw new Error('could not build the migrated database template');
  cpSync(template.stdout.trim().split('\n').pop(), path.join(process.env.DATA_DIR, 'pglite'), { recursive: true });
}
await import('./start.mjs');
