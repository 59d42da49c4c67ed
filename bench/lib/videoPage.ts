import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
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

/**
 * CPU time (ms) used so far by this process's Chromium descendants (browser, renderers, GPU
 * process, utilities), from /proc; undefined where /proc is missing. Both pages of the bench
 * share one browser, so a window's difference is what both sides cost together.
 */
export function chromiumCpuMs(): number | undefined {
  if (!existsSync('/proc/self/stat')) return undefined;
  const stats: Array<{ pid: number; ppid: number; comm: string; ticks: number }> = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const text = readFileSync(`/proc/${name}/stat`, 'utf8');
      // The command name is in parentheses and may hold spaces: the fields after it are fixed.
      const close = text.lastIndexOf(')');
      const comm = text.slice(text.indexOf('(') + 1, close);
      const f = text.slice(close + 2).split(' ');
      stats.push({ pid: Number(name), ppid: Number(f[1]), comm, ticks: Number(f[11]) + Number(f[12]) });
    } catch {
      // Ended meanwhile.
    }
  }
  const children = new Map<number, number[]>();
  for (const s of stats) children.set(s.ppid, [...(children.get(s.ppid) ?? []), s.pid]);
  const byPid = new Map(stats.map((s) => [s.pid, s]));
  let ticks = 0;
  const walk = (pid: number) => {
    for (const child of children.get(pid) ?? []) {
      const s = byPid.get(child)!;
      if (/chrom/i.test(s.comm)) ticks += s.ticks;
      walk(child);
    }
  };
  walk(process.pid);
  return (ticks * 1000) / 100;
}
