/**
 * `npm run bench:firstrun`: the first five minutes, timed. A person who has never seen Parley, on
 * a 390×844 phone screen (touch), goes from `/` to their first matched text chat: tap "Start a
 * conversation", type a name, a password and an age, choose a gender, tick the terms, tap "Create
 * account"; a second person is already searching. The person is played by Playwright
 * (pwa/e2e/firstRun.ts, shared with the end-to-end spec): it waits on nothing but what the app
 * shows next, so the time is the app's own plus the taps and typing.
 *
 * Builds the PWA into a temporary folder (or uses PWA_DIST), starts the real server (embedded
 * default, fresh DATA_DIR), runs `runs` first visits, each in a fresh browser context (nothing
 * cached: a first visit), and writes bench/results/firstrun.json: p50 over the runs of the whole
 * path and of the app's waits (page loads, the server's answers, the match).
 *
 * Options (flag or env BENCH_*): --runs=5
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { chromiumArgs } from '../pwa/playwright.config.ts';
import { PHONE, partnerSearching, playFirstRun, type FirstRunTiming } from '../pwa/e2e/firstRun.ts';
import { startBenchServer } from './lib/server.ts';
import { summarize } from './lib/stats.ts';
import { option } from './lib/options.ts';
import { buildPwa } from './lib/videoPage.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const runs = Number(option('runs', '5'));
const GOALS = { totalP50BelowMs: 15_000, appWaitsP50BelowMs: 2_000, everyRunBelowMs: 30_000 };

async function main() {
  const started = Date.now();
  const pwa = await buildPwa(repoRoot);
  const server = await startBenchServer(repoRoot, { SERVE_PWA: 'true', PWA_DIST: pwa.dir });
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: chromiumArgs });
  const timings: FirstRunTiming[] = [];
  try {
    for (let i = 0; i < runs; i++) {
      const partner = await partnerSearching(browser, server.url);
      const context = await browser.newContext({ ...PHONE, baseURL: server.url, serviceWorkers: 'block' });
      const page = await context.newPage();
      page.on('pageerror', (e) => console.error(`[run ${i + 1}] page error: ${e.message}`));
      const t = await playFirstRun(page);
      timings.push(t);
      console.log(
        `  run ${i + 1}/${runs}: ${Math.round(t.totalMs)} ms (taps and typing ${Math.round(t.actingMs)}, app ${Math.round(t.waitingMs)}: ${JSON.stringify(t.waits)})`,
      );
      await context.close();
      await partner.context().close();
    }
  } finally {
    await browser.close();
    await server.stop();
    if (pwa.temporary) await rm(pwa.dir, { recursive: true, force: true });
  }

  const total = summarize(timings.map((t) => t.totalMs));
  const waiting = summarize(timings.map((t) => t.waitingMs));
  const acting = summarize(timings.map((t) => t.actingMs));
  const steps = [...new Set(timings.flatMap((t) => Object.keys(t.waits)))];
  const result = {
    bench: 'firstrun',
    date: new Date().toISOString(),
    machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model ?? 'unknown' },
    options: { runs, screen: '390x844, touch, deviceScaleFactor 2', network: 'loopback', cache: 'none (a fresh context per run)' },
    totalMs: total,
    appWaitsMs: waiting,
    tapsAndTypingMs: acting,
    appWaitsByStepP50Ms: Object.fromEntries(steps.map((s) => [s, summarize(timings.map((t) => t.waits[s] ?? 0)).p50])),
    runs: timings.map((t) => ({ totalMs: Math.round(t.totalMs), tapsAndTypingMs: Math.round(t.actingMs), waits: t.waits })),
    goals: {
      ...GOALS,
      met: total.p50 < GOALS.totalP50BelowMs && waiting.p50 < GOALS.appWaitsP50BelowMs && total.max < GOALS.everyRunBelowMs,
    },
    durationS: Math.round((Date.now() - started) / 1000),
  };
  await mkdir(path.join(repoRoot, 'bench/results'), { recursive: true });
  await writeFile(path.join(repoRoot, 'bench/results/firstrun.json'), `${JSON.stringify(result, null, 2)}\n`);
  console.log(
    `firstrun: ${runs} runs, / -> matched text chat p50 ${total.p50} ms (max ${total.max}), app waits p50 ${waiting.p50} ms; goals ${result.goals.met ? 'met' : 'NOT met'}`,
  );
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
