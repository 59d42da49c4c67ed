/**
 * `npm run bench:live-chat`: one stream's chat on the room core — a broadcaster and `--viewers`
 * viewers watching the chat alone (`live:watch` with `media: false`: the SFU is bench:live's), all
 * following the chat (`room:join`); `--rate` messages a second in all, from `--posters` viewers
 * taking turns (each within the room's allowance). Delivery = post → `room:message` received by
 * every follower. Beside it, in the same run on the same server process and the same sockets: the
 * reference, a plain socket.io fan-out of the same messages (no storage, no policy; see
 * bench/README.md, BENCH_REFERENCE). Writes bench/results/live-chat.json.
 *
 * Options: --viewers=500  --rate=10  --posters=20  --seconds=20  --database-url=postgres://…  --out=live-chat
 * Pin it as the goals are measured: BENCH_SERVER_CPUS=0 taskset -c 1 npm run bench:live-chat
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { liveEvents, type LiveStream } from '@parley/contract/live';
import { roomEvents as wire, type PostAnswer, type RoomMessage } from '@parley/contract/rooms';
import { option } from './lib/options.ts';
import { startBenchServer } from './lib/server.ts';
import { sharedNow, summarize } from './lib/stats.ts';
import { ask, benchSecret, connectAll, freshDatabase, insertUsers, machine, sleep, type LoadUser } from './lib/storedRoomsLoad.ts';
import type { LeanSocket } from './lib/leanSocket.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const opts = {
  viewers: Number(option('viewers', '500')),
  rate: Number(option('rate', '10')),
  posters: Number(option('posters', '20')),
  seconds: Number(option('seconds', '20')),
  databaseUrl: option('database-url', process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'),
  out: option('out', 'live-chat'),
};
const GOAL_P99_MS = 50;

/**
 * Posts `rate` messages a second for `seconds` through `send` (posters in turn) and tallies what
 * every follower got: latency from the send time carried in the text.
 */
async function phase(
  sockets: LeanSocket[],
  posters: LeanSocket[],
  listen: (s: LeanSocket, got: (text: string) => void) => () => void,
  send: (s: LeanSocket, n: number, text: string) => Promise<boolean>,
) {
  const latencies: number[] = [];
  const counts = new Map<string, number>();
  const offs = sockets.map((s) =>
    listen(s, (text) => {
      const at = text.indexOf('@');
      if (at < 0) return;
      latencies.push(sharedNow() - Number(text.slice(at + 1)));
      counts.set(text, (counts.get(text) ?? 0) + 1);
    }),
  );
  const sent: string[] = [];
  let refused = 0;
  const everyMs = 1000 / opts.rate;
  const pending: Array<Promise<void>> = [];
  const t0 = performance.now();
  for (let n = 0; performance.now() - t0 < opts.seconds * 1000; n++) {
    const due = t0 + n * everyMs;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    const text = `chat ${n}@${sharedNow()}`;
    const poster = posters[n % posters.length]!;
    pending.push(
      send(poster, n, text).then(
        (ok) => (ok ? void sent.push(text) : void refused++),
        () => void refused++,
      ),
    );
  }
  await Promise.all(pending);
  await sleep(2000); // the last deliveries
  offs.forEach((off) => off());
  const expected = sent.length * sockets.length;
  const delivered = sent.reduce((sum, t) => sum + Math.min(counts.get(t) ?? 0, sockets.length), 0);
  return { sent: sent.length, refused, expected, lost: expected - delivered, latencyMs: summarize(latencies) };
}

const db = await freshDatabase(opts.databaseUrl, `parley_bench_livechat_${process.pid}`);
const secret = benchSecret();
const server = await startBenchServer(repoRoot, {
  DATABASE_URL: db.url,
  JWT_SECRET: secret,
  LIVE_WATCHES_PER_ADDRESS: String(opts.viewers + 10),
});
const pool = new pg.Pool({ connectionString: db.url, max: 2 });
try {
  const [caster, ...viewers] = await insertUsers(pool, opts.viewers + 1, secret, 'lc');
  const res = await fetch(`${server.url}/api/live`, {
    method: 'POST',
    headers: { authorization: `Bearer ${caster!.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ title: 'Bench chat', category: 'Just chatting' }),
  });
  if (!res.ok) throw new Error(`go live: ${res.status} ${await res.text()}`);
  const { roomId } = (await res.json()) as LiveStream;
  const everyone: LoadUser[] = [caster!, ...viewers];
  const sockets = await connectAll(server.url, everyone);
  for (const s of sockets.slice(1)) {
    const w = await ask<{ ok: boolean; message?: string }>(s, liveEvents.watch, { roomId, media: false });
    if (!w.ok) throw new Error(`watch refused: ${w.message}`);
  }
  for (const s of sockets) {
    const j = await ask<{ ok: boolean; message?: string }>(s, wire.join, { roomId });
    if (!j.ok) throw new Error(`chat join refused: ${j.message}`);
    const r = await ask<{ ok: boolean }>(s, 'ref:join', { room: roomId });
    if (!r.ok) throw new Error('reference join refused (is BENCH_REFERENCE on?)');
  }
  await sleep(1500);
  const posters = sockets.slice(1, 1 + opts.posters);

  server.startSampling();
  const core = await phase(
    sockets,
    posters,
    (s, got) => {
      // Lean sockets keep their listeners: a phase's listener goes quiet when the phase ends.
      let on = true;
      s.on(wire.message, (m: RoomMessage) => on && m.roomId === roomId && got(m.text));
      return () => void (on = false);
    },
    async (s, n, text) => (await ask<PostAnswer>(s, wire.post, { roomId, clientId: `b${n}`, text })).ok,
  );
  const coreUsage = server.stopSampling();
  await sleep(1000);
  server.startSampling();
  const reference = await phase(
    sockets,
    posters,
    (s, got) => {
      let on = true;
      s.on('ref:message', (m: { room: string; text: string }) => on && m.room === roomId && got(m.text));
      return () => void (on = false);
    },
    async (s, _n, text) => (await ask<{ ok: boolean }>(s, 'ref:post', { room: roomId, text, t: sharedNow() })).ok,
  );
  const referenceUsage = server.stopSampling();

  const ratio = Math.round((core.latencyMs.p99 / Math.max(reference.latencyMs.p99, 0.001)) * 100) / 100;
  const result = {
    bench: 'live-chat',
    started: new Date().toISOString(),
    machine: machine(),
    options: opts,
    goalP99Ms: GOAL_P99_MS,
    followers: sockets.length,
    core: { ...core, server: coreUsage },
    reference: { ...reference, server: referenceUsage },
    p99RatioToReference: ratio,
  };
  console.log(
    `live chat: ${sockets.length} following, ${core.sent} sent, ${core.lost} lost; delivery p50 ${core.latencyMs.p50} / p99 ${core.latencyMs.p99} ms (goal < ${GOAL_P99_MS}); reference p50 ${reference.latencyMs.p50} / p99 ${reference.latencyMs.p99} ms (${ratio}×); server CPU ${coreUsage.avgCpuPct} % vs ${referenceUsage.avgCpuPct} %`,
  );
  const dir = path.join(repoRoot, 'bench', 'results');
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, `${opts.out}.json`), `${JSON.stringify(result, null, 2)}\n`);
} finally {
  await pool.end();
  await server.stop();
  await db.drop();
}
