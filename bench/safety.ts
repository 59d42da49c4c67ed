/**
 * `npm run bench:safety`: how fast trust and safety acts, across two API processes on PostgreSQL
 * and Redis (as when scaled out). Report → visible to an online moderator (a socket on the other
 * process hears the queue change); ban → every socket of that user, on both processes, closed.
 * Goals: p99 < 1 s for both. Then the private nudity guard in headless Chromium (see
 * safety/nudityGuard.ts): classifications per second and the call's frame rate with it on
 * (goal ≥ 24 fps), and the time to blur an explicit partner. Writes bench/results/safety.json.
 *
 * Needs PostgreSQL (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test: a fresh
 * database is made beside it) and Redis (BENCH_REDIS_URL, default redis://127.0.0.1:6379).
 * Options: --reports=200  --bans=100  --parts=moderation,nudity  --nudity-rounds=5  --fps-seconds=5
 */
import { spawnSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { io as ioClient, type Socket } from 'socket.io-client';
import { machineCpu } from './lib/machineCpu.ts';
import { option } from './lib/options.ts';
import { startBenchServer } from './lib/server.ts';
import { summarize } from './lib/stats.ts';
import { signupAt } from '../api/src/testing/proofOfWork.ts';
import { benchNudityGuard } from './safety/nudityGuard.ts';
import { REALTIME_PROTOCOL } from '@parley/contract/protocol';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const REPORTS = Number(option('reports', '200'));
const BANS = Number(option('bans', '100'));
const PARTS = option('parts', 'moderation,nudity').split(',');
const NUDITY_ROUNDS = Number(option('nudity-rounds', '5'));
const FPS_SECONDS = Number(option('fps-seconds', '5'));
const baseDb = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const redis = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const PASSWORD = 'a bench password';

async function freshDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `parley_bench_safety_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: baseDb });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const u = new URL(baseDb);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: baseDb });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

type Person = { username: string; token: string; userId: string };
let n = 0;
async function signUp(url: string): Promise<Person> {
  const username = `b${Date.now().toString(36)}${(n++).toString(36)}`.slice(0, 20);
  const res = await signupAt(url, { username, password: PASSWORD, age: 30, gender: 'other' });
  if (res.status !== 201) throw new Error(`sign-up: ${res.status} ${await res.text()}`);
  const { accessToken } = (await res.json()) as { accessToken: string };
  const { userId } = JSON.parse(Buffer.from(accessToken.split('.')[1]!, 'base64url').toString()) as { userId: string };
  return { username, token: accessToken, userId };
}

function connect(url: string, p: Person): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = ioClient(url, {
      path: '/socket.io',
      transports: ['websocket'],
      reconnection: false,
      auth: { token: p.token, protocol: REALTIME_PROTOCOL },
      query: { userId: p.userId },
    });
    s.once('connect', () => resolve(s));
    s.once('connect_error', reject);
  });
}

const post = (url: string, token: string, json: unknown) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(json),
  });

async function moderation() {
  const db = await freshDatabase();
  const env = {
    DATABASE_URL: db.url,
    REDIS_URL: redis,
    REDIS_KEY_PREFIX: `benchsafety${Date.now().toString(36)}:`,
    JWT_SECRET: 'a-bench-signing-key-shared-by-both-processes',
  };
  const [one, two] = [await startBenchServer(root, env), await startBenchServer(root, env)];
  const sockets: Socket[] = [];
  const cpu = machineCpu();
  try {
    const mod = await signUp(one.url);
    const role = spawnSync('npm', ['run', '-s', 'role', '--', mod.username, 'moderator'], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: db.url },
      encoding: 'utf8',
    });
    if (role.status !== 0) throw new Error(`role: ${role.stderr}`);
    // The moderator's page is open on the other process.
    const modSocket = await connect(two.url, mod);
    sockets.push(modSocket);
    const watching = (await modSocket.timeout(5000).emitWithAck('moderation:watch', {})) as { ok: boolean };
    if (!watching.ok) throw new Error('the moderator could not watch the queue');

    const reporters = await Promise.all(Array.from({ length: 20 }, () => signUp(one.url)));
    const reported = await Promise.all(Array.from({ length: REPORTS }, () => signUp(one.url)));
    const reportMs: number[] = [];
    for (let i = 0; i < REPORTS; i++) {
      const target = reported[i]!;
      const heard = new Promise<number>((resolve) => {
        const on = (e: { userId: string }) => {
          if (e.userId !== target.userId) return;
          modSocket.off('moderation:queue', on);
          resolve(performance.now());
        };
        modSocket.on('moderation:queue', on);
      });
      const t0 = performance.now();
      const res = await post(`${one.url}/api/reports`, reporters[i % reporters.length]!.token, {
        reportedUserId: target.userId,
        context: 'profile',
        reason: 'spam',
        block: false,
      });
      if (res.status !== 201) throw new Error(`report: ${res.status} ${await res.text()}`);
      reportMs.push((await heard) - t0);
    }

    const banned = await Promise.all(Array.from({ length: BANS }, () => signUp(one.url)));
    const banMs: number[] = [];
    for (const p of banned) {
      const pageSockets = [await connect(one.url, p), await connect(two.url, p)];
      sockets.push(...pageSockets);
      const closed = Promise.all(
        pageSockets.map((s) => new Promise<number>((resolve) => s.once('disconnect', () => resolve(performance.now())))),
      );
      const t0 = performance.now();
      const res = await post(`${one.url}/api/moderation/decisions`, mod.token, { userId: p.userId, action: 'ban', rule: 'spam' });
      if (res.status !== 201) throw new Error(`ban: ${res.status} ${await res.text()}`);
      banMs.push(Math.max(...(await closed)) - t0);
    }

    const result = {
      machineCpu: cpu(),
      processes: 2,
      database: 'postgres',
      reportToModeratorMs: summarize(reportMs),
      banToEverySocketClosedMs: summarize(banMs),
      goals: { reportToModeratorP99Ms: 1000, banToSocketsClosedP99Ms: 1000 },
    };
    console.log(
      `safety: report → moderator p50/p99 ${result.reportToModeratorMs.p50}/${result.reportToModeratorMs.p99} ms (n=${REPORTS}); ban → sockets closed on both processes p50/p99 ${result.banToEverySocketClosedMs.p50}/${result.banToEverySocketClosedMs.p99} ms (n=${BANS})`,
    );
    return result;
  } finally {
    for (const s of sockets) s.disconnect();
    await one.stop();
    await two.stop();
    await db.drop().catch(() => undefined);
  }
}

async function main() {
  // A part not run this time keeps its last figures in the file.
  const file = path.join(root, 'bench/results/safety.json');
  const previous = JSON.parse(await readFile(file, 'utf8').catch(() => '{}')) as Record<string, unknown>;
  const result: Record<string, unknown> = { ...previous, bench: 'safety' };
  if (PARTS.includes('moderation')) Object.assign(result, { at: new Date().toISOString() }, await moderation());
  if (PARTS.includes('nudity')) {
    const cpu = machineCpu();
    const guard = await benchNudityGuard(root, { rounds: NUDITY_ROUNDS, fpsSeconds: FPS_SECONDS });
    result.nudityGuard = { at: new Date().toISOString(), machineCpu: cpu(), ...guard };
    console.log(
      `safety: nudity guard (${guard.backend}) ${guard.classificationsPerS} classifications/s, ${guard.modelMsPerFrame} ms each; partner video ${guard.partnerVideoFps.withGuard} fps with the guard, ${guard.partnerVideoFps.withoutGuard} without; explicit partner blurred ${guard.explicitFirstFrameToBlurMs.p50} ms (max ${guard.explicitFirstFrameToBlurMs.max}) after the first frame; goals ${guard.goals.met ? 'met' : 'NOT met'}`,
    );
  }
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify(result, null, 2)}\n`);
}

await main();
