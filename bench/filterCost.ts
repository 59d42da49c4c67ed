/**
 * `npm run bench:filter`: what the video background filter costs a sender per frame, alone in a
 * browser: the filter's own worker (pwa/src/lib/media/filterWorker.ts, bundled as the app bundles
 * it) fed by Chromium's fake camera (640×480, 30 fps) and writing to a track, with a fixed person
 * mask, for each path: blur and grayscale on the GPU (WebGL 2; here SwiftShader, the CPU, unless
 * the machine has a GPU), in the camera's YUV planes (the default without a GPU) and on a 2D
 * canvas. For each, the worker's own time per frame (wall clock,
 * measured in the worker) and the browser's CPU per filtered frame (all of Chromium's processes,
 * from /proc, over the window, less the same page without a filter). Run it under `taskset -c 1`
 * to hold the browser to one core, as on a small phone.
 *
 * Options: --seconds=8  --out=filter-cost
 */
import { createServer } from 'node:http';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { chromium } from '@playwright/test';
import { chromiumArgs } from '../pwa/playwright.config.ts';
import { option } from './lib/options.ts';
import { chromiumCpuMs } from './lib/videoPage.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const seconds = Number(option('seconds', '8'));
const out = option('out', 'filter-cost');

/** The page: camera → the filter worker → a track generator shown in a <video>; `?mode=` picks the path. */
const PAGE = `<!doctype html><html><body><video id="v" autoplay muted playsinline></video><script type="module">
const mode = new URLSearchParams(location.search).get('mode');
const camera = await navigator.mediaDevices.getUserMedia({ video: { width: 640, height: 480, frameRate: 30 } });
const track = camera.getVideoTracks()[0];
window.stats = [];
const gl = new OffscreenCanvas(1, 1).getContext('webgl2');
const info = gl && gl.getExtension('WEBGL_debug_renderer_info');
window.renderer = gl ? String(gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER)) : 'no WebGL 2';
if (mode === 'none') {
  document.getElementById('v').srcObject = camera;
} else {
  const generator = new MediaStreamTrackGenerator({ kind: 'video' });
  document.getElementById('v').srcObject = new MediaStream([generator]);
  const worker = new Worker('/filterWorker.js', { type: 'module' });
  worker.onmessage = (e) => { if (e.data.type === 'stats') window.stats.push(e.data); };
  worker.postMessage({ type: 'output', writable: generator.writable }, [generator.writable]);
  worker.postMessage({ type: 'path', path: mode.split('-')[1] });
  worker.postMessage({ type: 'filter', filter: mode.startsWith('gray') ? 'grayscale' : 'blur' });
  // The model's side of its channel, answering every frame at once with the same person: an
  // upright ellipse in the middle of the model's 256×144 mask.
  const alpha = new Uint8Array(256 * 144);
  for (let y = 0; y < 144; y++) for (let x = 0; x < 256; x++) if (((x - 128) / 50) ** 2 + ((y - 80) / 70) ** 2 <= 1) alpha[y * 256 + x] = 255;
  const channel = new MessageChannel();
  channel.port2.onmessage = (e) => {
    if (e.data.type !== 'frame') return;
    e.data.image.close();
    channel.port2.postMessage({ type: 'mask', alpha: alpha.slice(), width: 256, height: 144, ms: 0 });
  };
  worker.postMessage({ type: 'segmenter', port: channel.port1, width: 256, height: 144, minIntervalMs: 1000 / 12 }, [channel.port1]);
  const { readable } = new MediaStreamTrackProcessor({ track, maxBufferSize: 1 });
  worker.postMessage({ type: 'source', readable }, [readable]);
}
window.ready = true;
</script></body></html>`;

const MODES = ['none', 'blur-gpu', 'blur-planes', 'blur-canvas', 'gray-gpu', 'gray-planes', 'gray-canvas'] as const;

async function main() {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'parley-filter-cost-'));
  await build({
    entryPoints: [path.join(repoRoot, 'pwa/src/lib/media/filterWorker.ts')],
    bundle: true,
    format: 'esm',
    target: 'es2022',
    outfile: path.join(dir, 'filterWorker.js'),
    logLevel: 'warning',
  });
  const worker = await readFile(path.join(dir, 'filterWorker.js'));
  const server = createServer((req, res) => {
    const js = req.url?.startsWith('/filterWorker.js');
    res.setHeader('content-type', js ? 'text/javascript' : 'text/html');
    res.end(js ? worker : PAGE);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  const args = [...chromiumArgs.filter((a) => a !== '--use-fake-device-for-media-stream'), '--use-fake-device-for-media-stream=fps=30'];
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args });
  let renderer = 'unknown';
  const runs: Record<string, { browserCpuPct: number | undefined; framesPerS: number; workerMsPerFrame: number; path?: string }> = {};
  try {
    for (const mode of MODES) {
      const page = await browser.newPage();
      await page.goto(`http://localhost:${port}/?mode=${mode}`);
      await page.waitForFunction(() => (window as unknown as { ready?: boolean }).ready === true);
      renderer = await page.evaluate(() => (window as unknown as { renderer: string }).renderer);
      // Let the pipeline settle (first frames, the worker's compilation) before counting.
      await new Promise((r) => setTimeout(r, 2000));
      await page.evaluate(() => ((window as unknown as { stats: unknown[] }).stats = []));
      const [cpu0, t0] = [chromiumCpuMs(), performance.now()];
      await new Promise((r) => setTimeout(r, seconds * 1000));
      const cpu1 = chromiumCpuMs();
      const wall = performance.now() - t0;
      const stats = await page.evaluate(() => (window as unknown as { stats: Array<{ fps: number; drawMs: number; path: string }> }).stats);
      const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
      runs[mode] = {
        browserCpuPct: cpu0 === undefined || cpu1 === undefined ? undefined : Math.round(((cpu1 - cpu0) / wall) * 1000) / 10,
        framesPerS: mode === 'none' ? 30 : Math.round(mean(stats.map((s) => s.fps)) * 10) / 10,
        workerMsPerFrame: Math.round(mean(stats.map((s) => s.drawMs)) * 100) / 100,
        // The path the worker took: a forced one it could not take falls back, and says so here.
        ...(mode === 'none' ? {} : { path: stats.at(-1)?.path }),
      };
      await page.close();
      console.log(`${mode}: ${JSON.stringify(runs[mode])}`);
    }
  } finally {
    await browser.close();
    server.close();
    await rm(dir, { recursive: true, force: true });
  }
  const base = runs.none?.browserCpuPct;
  const perFrame = Object.fromEntries(
    MODES.filter((m) => m !== 'none').map((m) => {
      const r = runs[m]!;
      // CPU share above the unfiltered page (1 % of a core = 10 ms a second), per filtered frame.
      const ms =
        base === undefined || r.browserCpuPct === undefined || !r.framesPerS ? undefined : ((r.browserCpuPct - base) * 10) / r.framesPerS;
      return [m, ms === undefined ? undefined : Math.round(ms * 100) / 100];
    }),
  );
  const result = {
    bench: 'filter-cost',
    date: new Date().toISOString(),
    machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model ?? 'unknown', loadAverage: os.loadavg(), webglRenderer: renderer },
    options: { seconds, camera: 'Chromium fake device, 640×480, 30 fps', mask: 'fixed ellipse, 256×144' },
    runs,
    browserCpuMsPerFilteredFrame: perFrame,
  };
  await mkdir(path.join(repoRoot, 'bench/results'), { recursive: true });
  await writeFile(path.join(repoRoot, `bench/results/${out}.json`), `${JSON.stringify(result, null, 2)}\n`);
  console.log(`filter cost per frame (browser CPU above the camera alone): ${JSON.stringify(perFrame)}`);
}

await main();
