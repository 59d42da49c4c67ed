// `npm test`: every suite that needs no outside service — unit and API integration (Vitest, on
// PGlite; also on PostgreSQL/Redis when DATABASE_URL/REDIS_URL are set, with then the cluster test
// of several API processes behind nginx), then end to end
// (Playwright in Chromium against the built app). Ends with one line `tests: N passed, N failed`.
// `npm test -- unit` and `npm test -- e2e` run one stage; `npm test -- services` (with
// DATABASE_URL and REDIS_URL set) runs only the suites whose run depends on them, and the cluster
// test: the second pass of CI, since every other suite would repeat its PGlite run.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromiumPath } from './chromium.mjs';
import { serviceSuites } from './service-suites.mjs';

const reports = mkdtempSync(path.join(os.tmpdir(), 'parley-reports-'));
const run = (cmd, args, env = process.env) => spawnSync(cmd, args, { stdio: 'inherit', env }).status ?? 1;
const read = (file) => (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null);

const only = process.argv[2];
if (only && !['unit', 'e2e', 'services'].includes(only)) {
  console.error(`npm test -- ${only}: expected unit, e2e or services`);
  process.exit(2);
}
if (only === 'services' && !(process.env.DATABASE_URL && process.env.REDIS_URL)) {
  console.error('npm test -- services: set DATABASE_URL and REDIS_URL');
  process.exit(2);
}
let passed = 0;
let failed = 0;
let status = 0;
/** What failed, by name, for the closing lines: a long run's log is often read from its end. */
const failures = [];

/** The files Vitest would run (its config's include), without running them. */
function vitestFiles() {
  const r = spawnSync('npx', ['vitest', 'list', '--filesOnly', '--json'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (r.status !== 0) throw new Error('vitest list failed');
  return JSON.parse(r.stdout).map((f) => f.file);
}

if (!only || only === 'unit' || only === 'services') {
  const out = path.join(reports, 'vitest.json');
  const files = only === 'services' ? serviceSuites(vitestFiles()) : [];
  if (only === 'services') console.log(`${files.length} suites read DATABASE_URL or REDIS_URL: they run on PostgreSQL and Redis.`);
  // The services pass tells the suites, so tests that run the same either way (the embedded
  // database forced, whatever the environment says) are not run twice.
  const env = only === 'services' ? { ...process.env, PARLEY_TEST_PASS: 'services' } : process.env;
  status ||= run('npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${out}`, ...files], env);
  const r = read(out);
  if (r) {
    passed += r.numPassedTests;
    failed += r.numFailedTests;
    failures.push(...vitestFailures(r));
  } else status ||= 1;
}

// The cluster test (several API processes behind nginx) needs PostgreSQL and Redis: it runs with them, and only then.
if ((!only || only === 'unit' || only === 'services') && process.env.DATABASE_URL && process.env.REDIS_URL) {
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
    failures.push(...vitestFailures(r));
  } else status ||= 1;
}

if ((!only || only === 'e2e') && status === 0) {
  const exe = chromiumPath();
  status ||= run('npm', ['run', 'build', '-w', '@parley/pwa']);
  // The server bundle once, here, rather than by each worker's server starting at the same moment.
  status ||= run('node', ['--input-type=module', '-e', "await (await import('./scripts/build-server.mjs')).ensureServerBuild();"]);
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
      failures.push(...playwrightFailures(r));
    } else status ||= 1;
  }
}

for (const f of failures) console.log(`failed: ${f}`);
console.log(`\ntests: ${passed} passed, ${failed} failed`);
process.exit(status || (failed > 0 ? 1 : 0));

/** `file > title: first line of the error` for each failed Vitest test. */
function vitestFailures(report) {
  return report.testResults.flatMap((file) =>
    file.assertionResults
      .filter((t) => t.status === 'failed')
      .map((t) => `${path.relative(process.cwd(), file.name)} > ${t.fullName}: ${firstLine(t.failureMessages?.[0])}`),
  );
}

/** `file:line title (tries) at line N: first line of the last error (its locator)` for each test Playwright counts as failed. */
function playwrightFailures(report) {
  const out = [];
  const walk = (suite) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests) {
        if (test.status !== 'unexpected') continue;
        const last = test.results.at(-1);
        // Where it failed and on what: a spec's many `toBeVisible()` read alike without them.
        const at = last?.error?.location ? ` at line ${last.error.location.line}` : '';
        const locator = plain(last?.error?.message)
          .split('\n')
          .find((l) => /^\s*Locator:/.test(l));
        const on = locator ? ` (${locator.trim()})` : '';
        out.push(`${spec.file}:${spec.line} ${spec.title} (${test.results.length} tries)${at}: ${firstLine(last?.error?.message)}${on}`);
      }
    }
    for (const child of suite.suites ?? []) walk(child);
  };
  for (const suite of report.suites ?? []) walk(suite);
  return out;
}

/** A reporter's message without its colours: the closing lines are read as plain text. */
function plain(text) {
  // eslint-disable-next-line no-control-regex -- the escape that starts a colour
  return (text ?? '').replace(/\u001b\[[0-9;]*m/g, '');
}

function firstLine(text) {
  return (
    plain(text)
      .split('\n')
      .find((l) => l.trim()) ?? ''
  );
}
