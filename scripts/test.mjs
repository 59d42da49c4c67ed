// `npm test`: every suite that needs no outside service — unit and API integration (Vitest, on
// PGlite; also on PostgreSQL/Redis when DATABASE_URL/REDIS_URL are set, with then the cluster test
// of several API processes behind nginx), then end to end
// (Playwright in Chromium against the built app). Ends with one line `tests: N passed, N failed`.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromiumPath } from './chromium.mjs';

const reports = mkdtempSync(path.join(os.tmpdir(), 'parley-reports-'));
const run = (cmd, args, env = process.env) => spawnSync(cmd, args, { stdio: 'inherit', env }).status ?? 1;
const read = (file) => (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null);

const only = process.argv[2];
let passed = 0;
let failed = 0;
let status = 0;

if (!only || only === 'unit') {
  const out = path.join(reports, 'vitest.json');
  status ||= run('npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${out}`]);
  const r = read(out);
  if (r) {
    passed += r.numPassedTests;
    failed += r.numFailedTests;
  } else status ||= 1;
}

// The cluster test (several API processes behind nginx) needs PostgreSQL and Redis: it runs with them, and only then.
if ((!only || only === 'unit') && process.env.DATABASE_URL && process.env.REDIS_URL) {
  const out = path.join(reports, 'cluster.json');
  status ||= run('npx', [
    'vitest',
    'run',
    '-c',
    'vitest.cluster.config.ts',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${out}`,
  ]);
  const r = read(out);
  if (r) {
    passed += r.numPassedTests;
    failed += r.numFailedTests;
  } else status ||= 1;
}

if ((!only || only === 'e2e') && status === 0) {
  const exe = chromiumPath();
  status ||= run('npm', ['run', 'build', '-w', '@parley/pwa']);
  if (status === 0) {
    const out = path.join(reports, 'playwright.json');
    status ||= run('npx', ['playwright', 'test', '-c', 'pwa/playwright.config.ts'], {
      ...process.env,
      CHROMIUM_PATH: exe,
      PLAYWRIGHT_JSON_OUTPUT_FILE: out,
      PLAYWRIGHT_REPORTERS: 'list,json',
    });
    const r = read(out);
    if (r) {
      passed += r.stats.expected + r.stats.flaky;
      failed += r.stats.unexpected;
    } else status ||= 1;
  }
}

console.log(`\ntests: ${passed} passed, ${failed} failed`);
process.exit(status || (failed > 0 ? 1 : 0));
