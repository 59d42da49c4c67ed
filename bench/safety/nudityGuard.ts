/**
 * The nudity guard's part of `npm run bench:safety`: in headless Chromium on this machine, a
 * viewer with the guard on meets a neutral partner (Chromium's fake camera, 30 fps) and then
 * explicit ones (the camera plays pwa/e2e/media/explicit.y4m). Measured: the classifications the
 * guard makes per second, the model's time per frame, the frames per second the viewer's
 * partner video presents with the guard on (and, the other way round in the same call, with it
 * off), and the time from an explicit partner's first painted frame to the blur.
 */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import { chromiumArgs } from '../../pwa/playwright.config.ts';
import { startBenchServer } from '../lib/server.ts';
import { summarize } from '../lib/stats.ts';
import { buildPwa, presentedFps } from '../lib/videoPage.ts';
import { postSignup } from '../../pwa/e2e/signup.ts';

const MARK_FIRST_REMOTE_FRAME = 'parley:video:first-remote-frame';
const MARK_NUDITY_BLURRED = 'parley:video:nudity-blurred';

let n = 0;
async function videoUser(browser: Browser, url: string, guard: boolean): Promise<Page> {
  const context = await browser.newContext({
    baseURL: url,
    serviceWorkers: 'block',
    permissions: ['camera', 'microphone'],
    viewport: { width: 1280, height: 720 },
  });
  // The guard is on by default; a user who switched it off has this saved on the device.
  if (!guard)
    await context.addInitScript(() =>
      window.localStorage.setItem(
        'persist:chat',
        JSON.stringify({ nudityGuard: 'false', _persist: JSON.stringify({ version: 1, rehydrated: true }) }),
      ),
    );
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error(`page error: ${e.message}`));
  const name = `ng${Date.now().toString(36)}${(n++).toString(36)}`.slice(0, 20);
  const res = await postSignup(page.request, { data: { username: name, password: 'bench password 1234', age: 30, gender: 'other' } });
  if (res.status() !== 201) throw new Error(`signup ${res.status()}: ${await res.text()}`);
  await page.goto('/videochat');
  await page.getByRole('button', { name: 'Start', exact: true }).waitFor({ timeout: 30_000 });
  return page;
}

const guardState = (page: Page) => page.getByTestId('remote-box').getAttribute('data-nudity-guard');
const looks = (page: Page) => page.getByTestId('remote-box').getAttribute('data-nudity-looks').then(Number);

async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs = 60_000) {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
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

export async function benchNudityGuard(repoRoot: string, opts: { rounds: number; fpsSeconds: number }) {
  const pwa = await buildPwa(repoRoot);
  const server = await startBenchServer(repoRoot, { SERVE_PWA: 'true', PWA_DIST: pwa.dir });
  const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  // Cameras at 30 fps, like a laptop's (the fake device's default is 20).
  const args = [...chromiumArgs.filter((a) => a !== '--use-fake-device-for-media-stream'), '--use-fake-device-for-media-stream=fps=30'];
  const neutral = await chromium.launch({ executablePath, args });
  const explicit = await chromium.launch({
    executablePath,
    args: [...args, `--use-file-for-fake-video-capture=${path.join(repoRoot, 'pwa/e2e/media/explicit.y4m')}`],
  });
  try {
    const loadStarted = Date.now();
    const viewer = await videoUser(neutral, server.url, true);
    await waitFor('the guard to load its model', async () => (await guardState(viewer)) === 'watching');
    const modelLoadMs = Date.now() - loadStarted;

    // A neutral partner whose own guard is off: the same call measured both ways.
    const partner = await videoUser(neutral, server.url, false);
    await viewer.getByRole('button', { name: 'Start', exact: true }).click();
    await partner.getByRole('button', { name: 'Start', exact: true }).click();
    await Promise.all([waitForPartner(viewer), waitForPartner(partner)]);
    await new Promise((r) => setTimeout(r, 3000)); // the encoder settles
    const looks0 = await looks(viewer);
    const t0 = Date.now();
    const [fpsWithGuard, fpsWithoutGuard] = await Promise.all([
      presentedFps(viewer, 'remote-video', opts.fpsSeconds),
      presentedFps(partner, 'remote-video', opts.fpsSeconds),
    ]);
    // The page updates its counters once a second: wait for the next update before reading.
    await new Promise((r) => setTimeout(r, 1100));
    const classificationsPerS = (await looks(viewer)) - looks0;
    const perS = Math.round((classificationsPerS / ((Date.now() - t0) / 1000)) * 10) / 10;
    const box = viewer.getByTestId('remote-box');
    const modelMs = Number(await box.getAttribute('data-nudity-ms'));
    const backend = await box.getAttribute('data-nudity-backend');
    const neutralBlurred = (await guardState(viewer)) !== 'watching';
    await viewer.getByRole('button', { name: 'Next' }).click();
    await partner.context().close();

    const blurMs: number[] = [];
    for (let round = 0; round < opts.rounds; round++) {
      const stranger = await videoUser(explicit, server.url, false);
      if (round > 0) await viewer.getByRole('button', { name: 'Next' }).click();
      await stranger.getByRole('button', { name: 'Start', exact: true }).click();
      await waitFor('the blur', async () => (await guardState(viewer)) === 'shielded', 30_000).catch(async (e: unknown) => {
        const box = viewer.getByTestId('remote-box');
        const seen = {
          guard: await guardState(viewer),
          looks: await looks(viewer),
          status: await viewer.getByTestId('video-status').allTextContents(),
        };
        throw new Error(`${String(e)}: ${JSON.stringify(seen)}; ${await box.getAttribute('data-nudity-ms')} ms a look`);
      });
      blurMs.push(
        await viewer.evaluate(`(() => {
          const first = performance.getEntriesByName(${JSON.stringify(MARK_FIRST_REMOTE_FRAME)}).at(-1).startTime;
          return performance.getEntriesByName(${JSON.stringify(MARK_NUDITY_BLURRED)}).at(-1).startTime - first;
        })()`),
      );
      await stranger.context().close();
      process.stdout.write(`\r  nudity guard: explicit partner ${round + 1}/${opts.rounds}`);
    }
    process.stdout.write('\n');
    const blur = summarize(blurMs);
    return {
      camera: 'Chromium fake device, 30 fps; explicit partners: pwa/e2e/media/explicit.y4m (320x240)',
      backend,
      modelLoadMs,
      classificationsPerS: perS,
      modelMsPerFrame: modelMs,
      partnerVideoFps: { withGuard: Math.round(fpsWithGuard * 10) / 10, withoutGuard: Math.round(fpsWithoutGuard * 10) / 10 },
      neutralPartnerBlurred: neutralBlurred,
      explicitFirstFrameToBlurMs: blur,
      goals: { fpsAtLeast: 24, blurWithinMs: 1000, met: fpsWithGuard >= 24 && blur.max < 1000 && !neutralBlurred },
    };
  } finally {
    await neutral.close();
    await explicit.close();
    await server.stop();
    if (pwa.temporary) await rm(pwa.dir, { recursive: true, force: true });
  }
}
