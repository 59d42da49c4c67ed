import { spawn, type ChildProcess } from 'node:child_process';
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { startNodeFlags } from '../../scripts/start-flags.mjs';

export type ServerSample = { t: number; rssMb: number; cpuPct: number };

/** A port free on loopback right now, for a server the bench starts. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** Node flags from an environment variable (space-separated), for experiments. */
export const envNodeFlags = (name: string): string[] => (process.env[name] ?? '').split(' ').filter(Boolean);

/**
 * Starts the real server (embedded default) as a child process on a fresh DATA_DIR, or on a fresh
 * copy of `template` (an initialised, migrated, empty database) when given.
 */
export async function startBenchServer(repoRoot: string, env: Record<string, string>, template?: string) {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'parley-bench-'));
  if (template) await cp(template, dataDir, { recursive: true });
  // BENCH_PORT pins the port (machines shared by several runs hand each its own range).
  const port = process.env.BENCH_PORT ? Number(process.env.BENCH_PORT) : await freePort();
  const nodeFlags = [
    // The server as `npm start` runs it: its Node flags come from package.json.
    ...startNodeFlags(repoRoot),
    ...(process.env.BENCH_SERVER_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_SERVER_PROF}`] : []),
    // Extra Node flags for experiments, e.g. BENCH_SERVER_NODE_FLAGS='--max-semi-space-size=8'.
    ...envNodeFlags('BENCH_SERVER_NODE_FLAGS'),
  ];
  // The bundled API (built when stale), without the PWA.
  // BENCH_SERVER_CPUS=0 pins the server (all its threads) to core 0 from its first instruction, as an
  // independent measurement runs it; run the bench itself under `taskset -c 1` for the other core.
  const pin = process.env.BENCH_SERVER_CPUS;
  const [cmd, args] = pin
    ? ['taskset', ['-c', pin, process.execPath, ...nodeFlags, 'scripts/start.mjs']]
    : [process.execPath, [...nodeFlags, 'scripts/start.mjs']];
  const child: ChildProcess = spawn(cmd, args, {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SERVE_PWA: 'false',
      SKIP_PWA_BUILD: 'true',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      // Every simulated person signs up from this machine's one address.
      SIGNUPS_PER_ADDRESS: '100000',
      // The plain socket.io fan-out (`ref:` events) each bench measures beside the real path.
      BENCH_REFERENCE: '1',
      ...env,
    },
    stdio: ['ignore', process.env.BENCH_SERVER_STDOUT ? 'inherit' : 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  await untilHealthy(child, url);
  return watch(child, url, dataDir);
}

/**
 * Starts an in-run reference (by default bench/lib/referenceChatServer.mjs, plain socket.io) the
 * way startBenchServer starts Parley: same pinning, same Node flags as `npm start`, same sampling.
 */
export async function startReferenceChatServer(
  repoRoot: string,
  env: Record<string, string>,
  script = 'bench/lib/referenceChatServer.mjs',
) {
  const port = process.env.BENCH_PORT ? Number(process.env.BENCH_PORT) + 1 : await freePort();
  const nodeFlags = [...startNodeFlags(repoRoot), ...envNodeFlags('BENCH_SERVER_NODE_FLAGS')];
  const pin = process.env.BENCH_SERVER_CPUS;
  const [cmd, args] = pin ? ['taskset', ['-c', pin, process.execPath, ...nodeFlags, script]] : [process.execPath, [...nodeFlags, script]];
  const child: ChildProcess = spawn(cmd, args, {
    cwd: repoRoot,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', NODE_ENV: 'production', ...env },
    stdio: ['ignore', process.env.BENCH_SERVER_STDOUT ? 'inherit' : 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  await untilHealthy(child, url);
  return watch(child, url, undefined);
}

async function untilHealthy(child: ChildProcess, url: string) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('server did not become healthy in 60 s');
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** A started server process: its address, and its RSS and CPU read from /proc. */
function watch<D extends string | undefined>(child: ChildProcess, url: string, dataDir: D) {
  const pid = child.pid!;
  const ticksPerS = 100; // USER_HZ on Linux
  let last: { t: number; ticks: number } | undefined;
  const samples: ServerSample[] = [];
  const read = async () => {
    const [stat, status] = await Promise.all([readFile(`/proc/${pid}/stat`, 'utf8'), readFile(`/proc/${pid}/status`, 'utf8')]);
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]); // utime + stime
    const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    return { t: performance.now(), ticks, rssMb: rssKb / 1024 };
  };
  const status = async () => {
    const text = await readFile(`/proc/${pid}/status`, 'utf8');
    const kb = (k: string) => Number(new RegExp(`${k}:\\s+(\\d+)`).exec(text)?.[1] ?? 0);
    return { rssMb: Math.round(kb('VmRSS') / 102.4) / 10, hwmMb: Math.round(kb('VmHWM') / 102.4) / 10 };
  };
  let sampling: NodeJS.Timeout | undefined;
  // Each startSampling() bumps it: a read still in flight from an earlier window neither records
  // into this one nor starts a second loop (which read 400 % CPU over a 2 ms interval).
  let session = 0;
  return {
    url,
    pid,
    dataDir,
    /** Current and peak (high-water mark since start) RSS. */
    status,
    /**
     * Starts a CPU-time window: the answer ends it with the process's CPU over it (% of one core),
     * from utime + stime, so a phase's figure is exact rather than an average of samples.
     */
    async cpuWindow(): Promise<() => Promise<number>> {
      const from = await read();
      return async () => {
        const to = await read();
        return Math.round(((to.ticks - from.ticks) / ticksPerS / ((to.t - from.t) / 1000)) * 1000) / 10;
      };
    },
    /** Samples RSS and CPU every `ms` (one read at a time) until stopSampling(). */
    startSampling(ms = 250) {
      samples.length = 0;
      last = undefined;
      const mine = ++session;
      const loop = () => {
        read()
          .then(({ t, ticks, rssMb }) => {
            if (session !== mine) return;
            const cpuPct = last ? ((ticks - last.ticks) / ticksPerS / ((t - last.t) / 1000)) * 100 : 0;
            last = { t, ticks };
            samples.push({ t, rssMb, cpuPct });
          })
          .catch(() => undefined)
          .finally(() => {
            if (session === mine) sampling = setTimeout(loop, ms);
          });
      };
      loop();
    },
    stopSampling() {
      session++;
      clearTimeout(sampling);
      samples.shift(); // the first CPU figure covers the time before sampling started
      const rss = samples.map((s) => s.rssMb);
      const cpu = samples.map((s) => s.cpuPct);
      const avg = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);
      // Where in the scenario the peak falls (joins, the chat, the skips): the largest sample of each second.
      const rssMbBySecond: number[] = [];
      for (const s of samples) {
        const second = Math.floor((s.t - samples[0]!.t) / 1000);
        rssMbBySecond[second] = Math.max(rssMbBySecond[second] ?? 0, Math.round(s.rssMb));
      }
      return {
        peakRssMb: Math.round(Math.max(...rss) * 10) / 10,
        // A second without a sample (the server too busy to be read) is null, not a hole.
        rssMbBySecond: Array.from(rssMbBySecond, (mb) => mb ?? null),
        avgCpuPct: Math.round(avg(cpu)),
        peakCpuPct: Math.round(Math.max(...cpu)),
        samples: samples.length,
      };
    },
    async stop(keepData = false) {
      session++;
      clearTimeout(sampling);
      child.kill('SIGTERM');
      await new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        const t = setTimeout(
          () => {
            child.kill('SIGKILL');
            resolve();
            // Writing a CPU profile at exit takes seconds of its own.
          },
          process.env.BENCH_SERVER_PROF ? 60_000 : 10_000,
        );
        child.once('exit', () => {
          clearTimeout(t);
          resolve();
        });
      });
      if (!keepData && dataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}
