import { spawnSync } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';

/** The PWA built into a temporary folder, or PWA_DIST when given (then kept). */
export async function buildPwa(repoRoot: string): Promise<{ dir: string; temporary: boolean }> {
  if (process.env.PWA_DIST) return { dir: path.resolve(process.env.PWA_DIST), temporary: false };
  const dir = await mkdtemp(path.join(os.tmpdir(), 'parley-bench-pwa-'));
  const vite = path.join(repoRoot, 'pwa/node_modules/.bin/vite');
  const r = spawnSync(vite, ['build', '-c', 'pwa/vite.config.ts', '--logLevel', 'error'], {
    cwd: repoRoot,
    env: { ...process.env, PWA_OUT_DIR: dir },
    stdio: 'inherit',
  });
  if (r.status !== 0) throw new Error('PWA build failed');
  return { dir, temporary: true };
}

// The functions below run in the page. They are plain JavaScript strings because tsx (esbuild with
// keepNames) would wrap TypeScript functions in a `__name` helper the page does not have.

/** Frames a <video> presents per second, over `seconds`. */
export function presentedFps(page: Page, testId: string, seconds: number): Promise<number> {
  return page.evaluate(`new Promise((resolve) => {
    const v = document.querySelector('[data-testid="${testId}"]');
    const end = performance.now() + ${seconds * 1000};
    let first = null;
    let last = null;
    v.requestVideoFrameCallback(function step(_now, meta) {
      first = first || meta;
      last = meta;
      if (performance.now() < end) return v.requestVideoFrameCallback(step);
      const span = last.expectedDisplayTime - first.expectedDisplayTime;
      resolve(span > 0 ? ((last.presentedFrames - first.presentedFrames) / span) * 1000 : 0);
    });
  })`);
}
