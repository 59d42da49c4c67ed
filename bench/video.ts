/**
 * `npm run bench:video`: video chat set-up latency and background-blur frame rate.
 *
 * Builds the PWA into a temporary folder (or uses PWA_DIST), starts the real server (embedded
 * default, fresh DATA_DIR), and drives two signed-up users in headless Chromium with fake camera
 * and microphone (30 fps) through `rounds` matches on /videochat. For each room it reads the
 * page's performance marks: the room setup arriving (`chat:matched`) and the first remote video
 * frame painted (requestVideoFrameCallback), on both sides. Then it turns the blur filter on at
 * one side and counts the frames the partner's <video> presents per second.
 * Writes bench/results/video.json (--out=name: name.json) and prints one summary line.
 *
 * Options (flag or env BENCH_*): --rounds=20  --fps-seconds=5  --filter-path=worker|canvas|page (where the
 * sender's filter draws its frames: the worker, where the browser allows, in the camera's own YUV
 * planes; the worker drawing on a canvas; or the page itself).
 * Two users re-meet each round, so the matchmaker's recent-partner rule makes each rematch wait
 * about 10 s; that wait is before the room setup and is not part of the measured time.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from '@playwright/test';
import { chromiumArgs } from '../pwa/playwright.config.ts';
import { startBenchServer } from './lib/server.ts';
import { summarize } from './lib/stats.ts';
import { option } from './lib/options.ts';
import { postSignup } from '../pwa/e2e/signup.ts';
import { buildPwa, chromiumCpuMs, presentedFps } from './lib/videoPage.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const rounds = Number(option('rounds', '20'));
const fpsSeconds = Number(option('fps-seconds', '5'));
const filterPath = option('filter-path', 'worker');
const outName = option('out', 'video');

const MARK_ROOM_SETUP = 'parley:video:room-setup';
const MARK_FIRST_REMOTE_FRAME = 'parley:video:first-remote-frame';

async function user(browser: Browser, url: string, name: string): Promise<Page> {
  const context = await browser.newContext({
    baseURL: url,
    serviceWorkers: 'block',
    permissions: ['camera', 'microphone'],
    viewport: { width: 1280, height: 720 },
  });
  if (filterPath !== 'worker') await context.addInitScript((p) => window.localStorage.setItem('parley.filterPath', p), filterPath);
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error(`[${name}] page error: ${e.message}`));
  const res = await postSignup(page.request, {
    data: { username: name, password: 'bench password 1234', age: 30, gender: 'other' },
  });
  if (res.status() !== 201) throw new Error(`signup ${res.status()}: ${await res.text()}`);
  await page.goto('/videochat');
  await page.getByTestId('preview-placeholder').waitFor({ state: 'hidden', timeout: 30_000 });
  await page.getByRole('button', { name: 'Start', exact: true }).waitFor({ timeout: 30_000 });
  return page;
}

// The functions below run in the page. They are plain JavaScript strings because tsx (esbuild with
// keepNames) would wrap TypeScript functions in a `__name` helper the page does not have.

/** Room setup → first remote frame (ms) for every room this page has been in. */
function setupToFirstFrame(page: Page): Promise<Record<string, number>> {
  return page.evaluate(`(() => {
    const setups = new Map(performance.getEntriesByName(${JSON.stringify(MARK_ROOM_SETUP)}).map((e) => [e.detail.roomId, e.startTime]));
    const out = {};
    for (const e of performance.getEntriesByName(${JSON.stringify(MARK_FIRST_REMOTE_FRAME)})) {
      const s = setups.get(e.detail.roomId);
      if (s !== undefined) out[e.detail.roomId] = e.startTime - s;
    }
    return out;
  })()`);
}

async function waitForPartner(page: Page) {
  await page.waitForFunction(
    () => {
      const v = document.querySelector<HTMLVideoElement>('[data-testid="remote-video"]');
      return !!v && v.videoWidth > 0 && !v.classList.contains('hidden');
    },
    undefined,
    { timeout: 60_000 },
  );
}

async function main() {
  const started = Date.now();
  const pwa = await buildPwa(repoRoot);
  const server = await startBenchServer(repoRoot, { SERVE_PWA: 'true', PWA_DIST: pwa.dir });
  // The fake camera runs at 30 fps, like a laptop camera (its default is 20).
  const args = [...chromiumArgs.filter((a) => a !== '--use-fake-device-for-media-stream'), '--use-fake-device-for-media-stream=fps=30'];
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args });
  try {
    const suffix = Date.now().toString(36).slice(-6);
    const a = await user(browser, server.url, `bencha${suffix}`);
    const b = await user(browser, server.url, `benchb${suffix}`);

    for (let round = 0; round < rounds; round++) {
      if (round === 0) {
        await a.getByRole('button', { name: 'Start', exact: true }).click();
        await b.getByRole('button', { name: 'Start', exact: true }).click();
      } else {
        await a.getByRole('button', { name: 'Next' }).click();
        await b.getByTestId('video-status').filter({ hasText: 'Stranger has disconnected' }).waitFor({ timeout: 30_000 });
        await b.getByRole('button', { name: 'Next' }).click();
      }
      await Promise.all([waitForPartner(a), waitForPartner(b)]);
      process.stdout.write(`\r  round ${round + 1}/${rounds}`);
    }
    process.stdout.write('\n');
    const samples = [...Object.values(await setupToFirstFrame(a)), ...Object.values(await setupToFirstFrame(b))];

    /** The browser's CPU (both pages) over a window, as a share of one core. */
    const cpuOver = async <T>(run: () => Promise<T>): Promise<[T, number | undefined]> => {
      const [cpu0, t0] = [chromiumCpuMs(), performance.now()];
      const out = await run();
      const cpu1 = chromiumCpuMs();
      return [out, cpu0 === undefined || cpu1 === undefined ? undefined : Math.round(((cpu1 - cpu0) / (performance.now() - t0)) * 100)];
    };
    const [noneRemoteFps, plainCpuPct] = await cpuOver(() => presentedFps(b, 'remote-video', fpsSeconds));
    await a.getByRole('button', { name: 'Settings' }).click();
    await a.getByRole('radio', { name: 'Blur background' }).check();
    // Let the segmentation model load and the encoder settle before counting.
    await new Promise((r) => setTimeout(r, 5000));
    const [[blurRemoteFps, blurLocalFps], blurCpuPct] = await cpuOver(() =>
      Promise.all([presentedFps(b, 'remote-video', fpsSeconds), presentedFps(a, 'local-video', fpsSeconds)]),
    );
    // The sender's own counters: frames the filter drew and person masks the model produced, last second.
    const filterStats = await a.getByTestId('local-preview').evaluate((el) => ({
      filterFps: Number(el.dataset.filterFps),
      maskFps: Number(el.dataset.maskFps),
      drawMs: Number(el.dataset.drawMs),
      maskMs: Number(el.dataset.maskMs),
      path: el.dataset.filterPath,
    }));

    const setup = summarize(samples);
    const result = {
      bench: 'video',
      date: new Date().toISOString(),
      machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model ?? 'unknown' },
      options: { rounds, fpsSeconds, filterPath, camera: 'Chromium fake device, 30 fps, 640x480', network: 'loopback, host candidates' },
      roomSetupToFirstRemoteFrameMs: setup,
      samples: samples.map((s) => Math.round(s)),
      fps: {
        remoteWithoutFilter: Math.round(noneRemoteFps * 10) / 10,
        remoteWithBlur: Math.round(blurRemoteFps * 10) / 10,
        senderPreviewWithBlur: Math.round(blurLocalFps * 10) / 10,
        senderFilterFramesPerS: filterStats.filterFps,
        senderPersonMasksPerS: filterStats.maskFps,
        senderDrawMsPerFrame: filterStats.drawMs,
        senderModelMsPerMask: filterStats.maskMs,
        senderFilterPath: filterStats.path,
      },
      // Chromium's CPU (both pages, every process of the browser) while the call runs plain, and
      // with blur at the sender; the difference per sent frame is what the filter costs.
      browserCpu: {
        plainPct: plainCpuPct,
        blurPct: blurCpuPct,
        filterCpuMsPerFrame:
          plainCpuPct === undefined || blurCpuPct === undefined || !filterStats.filterFps
            ? undefined
            : Math.round((((blurCpuPct - plainCpuPct) * 10) / filterStats.filterFps) * 10) / 10,
      },
      goals: { p50BelowMs: 1000, blurFpsAtLeast: 24, met: setup.p50 < 1000 && blurRemoteFps >= 24 },
      durationS: Math.round((Date.now() - started) / 1000),
    };
    await mkdir(path.join(repoRoot, 'bench/results'), { recursive: true });
    await writeFile(path.join(repoRoot, `bench/results/${outName}.json`), `${JSON.stringify(result, null, 2)}\n`);
    console.log(
      `video: ${setup.n} rooms, room setup -> first remote frame p50 ${setup.p50} ms p90 ${setup.p90} ms; ` +
        `remote fps ${result.fps.remoteWithoutFilter} plain, ${result.fps.remoteWithBlur} with blur (sender ${result.fps.senderPreviewWithBlur}, ${result.fps.senderPersonMasksPerS} person masks/s); goals ${result.goals.met ? 'met' : 'NOT met'}`,
    );
  } finally {
    await browser.close();
    await server.stop();
    if (pwa.temporary) await rm(pwa.dir, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
