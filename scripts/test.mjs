// `npm test`: every suite that needs no outside service — unit and API integration (Vitest, on
// PGlite; also on PostgreSQL/Redis when DATABASE_URL/REDIS_URL are set), then end to end
// (Playwright in Chromium against the built app).
import { spawnSync } from 'node:child_process';
import { chromiumPath } from './chromium.mjs';

const run = (cmd, args, env = process.env) => {
  const r = spawnSync(cmd, args, { stdio: 'inherit', env });
  if (r.status !== 0) process.exit(r.status ?? 1);
};

const only = process.argv[2];
if (!only || only === 'unit') run('npx', ['vitest', 'run']);
if (!only || only === 'e2e') {
  const exe = chromiumPath();
  run('npm', ['run', 'build', '-w', '@parley/pwa']);
  run('npx', ['playwright', 'test', '-c', 'pwa/playwright.config.ts'], { ...process.env, CHROMIUM_PATH: exe });
}
