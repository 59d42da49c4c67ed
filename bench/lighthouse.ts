/**
 * `npm run bench:lighthouse`: Lighthouse (mobile default configuration) on `/` and `/login` of the
 * production build, served by the real server.
 *
 * Builds the PWA into a temporary folder, starts scripts/start.mjs on it (SKIP_PWA_BUILD, fresh
 * DATA_DIR, a free port), runs Lighthouse in Chromium through chrome-launcher, writes
 * bench/results/lighthouse.json and prints one summary line. Each page is measured RUNS times
 * (env LIGHTHOUSE_RUNS, default 3) and the run with the median performance score is reported.
 *
 * LIGHTHOUSE_LOCALES (a comma list, e.g. `es,ar,ja`; `all` for every shipped language) also measures
 * the landing page as a browser set to each language sees it (Chromium's `--accept-lang`, which sets navigator.languages), since the
 * catalog it loads is part of its start. LIGHTHOUSE_DUMP=<dir> keeps each reported run's full report.
 *
 * Landing JavaScript: the script resources of the landing page's network-requests audit. Their
 * transferSize is what the browser received (brotli when the server offers it); their gzip size is
 * measured from the same files, so the 100 kB goal is checked in the unit it is stated in.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { freePort } from './lib/server.ts';
import { startNodeFlags } from '../scripts/start-flags.mjs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PAGES = ['/', '/login'] as const;
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
const RUNS = Math.max(1, Number(process.env.LIGHTHOUSE_RUNS ?? 3));
const GOALS = { performance: 95, accessibility: 100, 'best-practices': 100, seo: 100, landingJsGzipBytes: 100 * 1000 };
const SHIPPED_LOCALES = ['en', 'es', 'pt-BR', 'fr', 'de', 'tr', 'id', 'ar', 'ja'];
const LOCALES = ((v) => (v === 'all' ? SHIPPED_LOCALES : v ? v.split(',').map((l) => l.trim()) : []))(process.env.LIGHTHOUSE_LOCALES);
const CHROME_FLAGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'];

type Scores = Record<(typeof CATEGORIES)[number], number>;
type Audit = { id: string; title: string; score: number | null; displayValue?: string; details?: { type?: string; items?: unknown[] } };
type Lhr = {
  lighthouseVersion: string;
  environment?: { hostUserAgent?: string };
  categories: Record<string, { score: number | null; auditRefs: Array<{ id: string; weight: number }> }>;
  audits: Record<string, Audit>;
  runtimeError?: { code: string; message: string };
  runWarnings?: string[];
};
type NetworkItem = { url: string; resourceType?: string; transferSize?: number; resourceSize?: number };

function buildPwa(outDir: string) {
  const r = spawnSync('npm', ['run', 'build', '-w', '@parley/pwa'], {
    cwd: repoRoot,
    env: { ...process.env, PWA_OUT_DIR: outDir },
    encoding: 'utf8',
  });
  if (r.status !== 0) {
    process.stderr.write(`${r.stdout}\n${r.stderr}\n`);
    throw new Error('PWA build failed');
  }
}

async function startServer(pwaDir: string, dataDir: string): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, [...startNodeFlags(repoRoot), 'scripts/start.mjs'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      SKIP_PWA_BUILD: 'true',
      PWA_DIST: pwaDir,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}): ${stderr}`);
    const ok = await fetch(`${url}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return { url, child };
    await new Promise((r) => setTimeout(r, 250));
  }
  child.kill('SIGTERM');
  throw new Error(`server did not become healthy in 120 s: ${stderr}`);
}

async function stopServer(child: ChildProcess) {
  if (child.exitCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

const score = (lhr: Lhr, id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);

/** Audits that cost points in a category (weight > 0, score < 1), for the report. */
function shortfalls(lhr: Lhr, category: string) {
  return (lhr.categories[category]?.auditRefs ?? [])
    .filter((ref) => ref.weight > 0)
    .map((ref) => lhr.audits[ref.id]!)
    .filter((a) => a.score !== null && a.score < 1)
    .map((a) => ({ id: a.id, title: a.title, score: a.score, ...(a.displayValue ? { value: a.displayValue } : {}) }));
}

const METRICS = [
  'first-contentful-paint',
  'largest-contentful-paint',
  'total-blocking-time',
  'cumulative-layout-shift',
  'speed-index',
] as const;

async function landingJavaScript(lhr: Lhr) {
  const items = (lhr.audits['network-requests']?.details?.items ?? []) as NetworkItem[];
  const scripts = items.filter((i) => i.resourceType === 'Script');
  const measured = await Promise.all(
    scripts.map(async (s) => {
      // The file as built; its gzip size at level 9 is what a gzip-only server would send.
      const body = Buffer.from(await (await fetch(s.url, { headers: { 'accept-encoding': 'identity' } })).arrayBuffer());
      return {
        url: new URL(s.url).pathname,
        transferBytes: s.transferSize ?? 0,
        rawBytes: body.length,
        gzipBytes: gzipSync(body, { level: 9 }).length,
      };
    }),
  );
  const sum = (k: 'transferBytes' | 'rawBytes' | 'gzipBytes') => measured.reduce((a, s) => a + s[k], 0);
  return { scripts: measured, transferBytes: sum('transferBytes'), rawBytes: sum('rawBytes'), gzipBytes: sum('gzipBytes') };
}

/**
 * One Lighthouse run in a fresh browser, so no service worker or cache of an earlier run is seen.
 * A run whose trace recording failed is retried (Lighthouse's own advice), up to three attempts.
 */
async function audit(url: string, lang?: string): Promise<Lhr> {
  let lastError = '';
  for (let attempt = 1; attempt <= 3; attempt++) {
    const chrome = await chromeLauncher.launch({
      chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      chromeFlags: lang ? [...CHROME_FLAGS, `--accept-lang=${lang}`] : CHROME_FLAGS,
      logLevel: 'silent',
    });
    try {
      const result = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: [...CATEGORIES] });
      const lhr = result?.lhr as unknown as Lhr | undefined;
      if (lhr && !lhr.runtimeError) return lhr;
      lastError = lhr?.runtimeError ? `${lhr.runtimeError.code} ${lhr.runtimeError.message}` : 'no result';
    } finally {
      await chrome.kill();
    }
  }
  throw new Error(`Lighthouse failed on ${url} three times: ${lastError}`);
}

async function main() {
  const work = await mkdtemp(path.join(os.tmpdir(), 'parley-lighthouse-'));
  const pwaDir = path.join(work, 'pwa');
  let server: ChildProcess | undefined;
  try {
    buildPwa(pwaDir);
    const started = await startServer(pwaDir, path.join(work, 'data'));
    server = started.child;

    const pages: Record<string, unknown> = {};
    const reported: Record<string, Lhr> = {};
    const perfRuns: Record<string, number[]> = {};
    // The pages in the browser's own language, then the landing page in each asked-for language.
    const targets = [
      ...PAGES.map((page) => ({ key: page as string, page, lang: undefined as string | undefined })),
      ...LOCALES.map((lang) => ({ key: `/ (${lang})`, page: '/', lang })),
    ];
    for (const { key, page, lang } of targets) {
      const runs: Lhr[] = [];
      for (let i = 0; i < RUNS; i++) runs.push(await audit(`${started.url}${page}`, lang));
      // The run with the median performance score stands for the page.
      const median = [...runs].sort((a, b) => score(a, 'performance') - score(b, 'performance'))[Math.floor(runs.length / 2)]!;
      reported[key] = median;
      perfRuns[key] = runs.map((r) => score(r, 'performance'));
      if (process.env.LIGHTHOUSE_DUMP) {
        await mkdir(process.env.LIGHTHOUSE_DUMP, { recursive: true });
        await writeFile(path.join(process.env.LIGHTHOUSE_DUMP, `${key.replace(/[^a-z0-9-]+/gi, '_')}.json`), JSON.stringify(median));
      }
      const scores = Object.fromEntries(CATEGORIES.map((c) => [c, score(median, c)])) as Scores;
      pages[key] = {
        scores,
        performanceRuns: runs.map((r) => score(r, 'performance')),
        // Every run, not only the median: a goal is met reliably only when each run meets it.
        runs: runs.map((r) => ({
          performance: score(r, 'performance'),
          ...Object.fromEntries(METRICS.map((m) => [m, r.audits[m]?.displayValue ?? null])),
        })),
        metrics: Object.fromEntries(METRICS.map((m) => [m, median.audits[m]?.displayValue ?? null])),
        shortfalls: Object.fromEntries(
          CATEGORIES.map((c) => [c, shortfalls(median, c)]).filter(([, list]) => (list as unknown[]).length > 0),
        ),
        ...(median.runWarnings?.length ? { runWarnings: median.runWarnings } : {}),
      };
    }

    const landingJs = await landingJavaScript(reported['/']!);
    // Each language's landing downloads its own catalog: the budget holds for each.
    const landingJsByLocale: Record<string, number> = {};
    for (const lang of LOCALES) landingJsByLocale[lang] = (await landingJavaScript(reported[`/ (${lang})`]!)).gzipBytes;
    const heaviestLandingJs = Math.max(landingJs.gzipBytes, ...Object.values(landingJsByLocale));
    const anyLhr = reported['/']!;
    const met =
      targets.every(({ key }) => CATEGORIES.every((c) => score(reported[key]!, c) >= GOALS[c])) &&
      heaviestLandingJs <= GOALS.landingJsGzipBytes;
    const result = {
      benchmark: 'lighthouse',
      date: new Date().toISOString(),
      lighthouseVersion: anyLhr.lighthouseVersion,
      userAgent: anyLhr.environment?.hostUserAgent ?? null,
      configuration: 'Lighthouse default (mobile: Moto G Power emulation, simulated slow 4G, 4x CPU slowdown)',
      runsPerPage: RUNS,
      pages,
      landingJavaScript: landingJs,
      ...(LOCALES.length ? { landingJavaScriptGzipBytesByLocale: landingJsByLocale } : {}),
      goals: GOALS,
      goalsMet: met,
    };
    await mkdir(path.join(repoRoot, 'bench/results'), { recursive: true });
    await writeFile(path.join(repoRoot, 'bench/results/lighthouse.json'), `${JSON.stringify(result, null, 2)}\n`);

    const line = targets
      .map(({ key: p }) => {
        const s = reported[p]!;
        return `${p} perf ${score(s, 'performance')} (runs ${perfRuns[p]!.join('/')}) a11y ${score(s, 'accessibility')} bp ${score(s, 'best-practices')} seo ${score(s, 'seo')}`;
      })
      .join(' | ');
    const kb = (b: number) => (b / 1000).toFixed(1);
    console.log(
      `lighthouse: ${line} | landing JS ${kb(landingJs.gzipBytes)} kB gzip (${kb(landingJs.transferBytes)} kB transferred, ${landingJs.scripts.length} scripts)${
        LOCALES.length ? ` (heaviest language ${kb(heaviestLandingJs)} kB)` : ''
      } | goals ${met ? 'met' : 'NOT met'}`,
    );
  } finally {
    if (server) await stopServer(server);
    await rm(work, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
