import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { defineConfig } from '@playwright/test';

// Each worker has a server of its own (a fresh database, its own rate limits and matchmaking), so
// specs running side by side never meet each other's users: worker i's server listens on
// E2E_PORT + i. A spec's own extra servers take the ports after those (`e2ePort`).
const firstPort = Number(process.env.E2E_PORT ?? 4310);
// One worker (its browsers and its server) keeps about one core busy: two on two cores took the
// suite from 25 to 12 minutes. More cores: set E2E_WORKERS.
const workers = Number(process.env.E2E_WORKERS ?? Math.min(2, availableParallelism()));
/** A port of this run's block (E2E_PORT up to E2E_PORT + 8; each spec with a server of its own has its own offset): `workers` shared servers, then the specs' own. */
export const e2ePort = (offset: number) => firstPort + offset;
// Playwright loads this file again in each worker, where TEST_PARALLEL_INDEX names the worker's slot.
const port = e2ePort(Number(process.env.TEST_PARALLEL_INDEX ?? 0));
export const baseURL = `http://localhost:${port}`;

/**
 * The browser the specs run in: CHROMIUM_PATH (npm test sets it), else Debian's headless shell, the
 * same engine without the desktop browser around it, at about half the CPU per page.
 */
export const chromiumExecutable =
  process.env.CHROMIUM_PATH ?? ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find((p) => existsSync(p)) ?? '/usr/bin/chromium';
/** The whole browser, for what the headless shell lacks (its notifications, which Web Push shows). */
export const fullChromium = existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : chromiumExecutable;

/** Flags that work in this headless sandbox; fake media devices for the video specs. */
export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-quic',
  '--no-first-run',
  '--disable-sync',
  '--use-fake-device-for-media-stream',
  '--use-fake-ui-for-media-stream',
];

export default defineConfig({
  testDir: './e2e',
  // A spec's minute alone can be two on a busy machine.
  timeout: 120_000,
  // What a page shows may take a while on a busy machine (a lazily loaded page, two browsers at once).
  expect: { timeout: 20_000 },
  fullyParallel: false,
  workers,
  retries: process.env.CI ? 1 : 0,
  // npm test adds the JSON reporter (PLAYWRIGHT_REPORTERS=list,json) for its closing summary line.
  reporter: (process.env.PLAYWRIGHT_REPORTERS ?? 'list').split(',').map((r) => [r] as [string]),
  use: {
    baseURL,
    launchOptions: { executablePath: chromiumExecutable, args: chromiumArgs },
    // Recording a trace took most of a test's CPU (a chat test: 67 s with it, 15 s without): only a
    // failed test's retry records one. Locally, --trace=on.
    trace: 'on-first-retry',
  },
  webServer: Array.from({ length: workers }, (_, slot) => ({
    command: `node ../scripts/e2e-server.mjs`,
    url: `http://localhost:${e2ePort(slot)}/api/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    env: { PORT: String(e2ePort(slot)) },
  })),
});
