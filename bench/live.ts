/**
 * `npm run bench:live`: how many viewers one process's SFU (api/src/live/sfu.ts) serves. A
 * synthetic 1 Mbit/s video source published by a werift client, N werift viewers in a second
 * process; each packet carries its send time, so a viewer measures delivery delay and loss. N grows
 * step by step; the answer is the largest N with p99 delay < 200 ms and loss < 1 %. Server CPU is this process's (the SFU alone; the
 * broadcaster and viewers run in the child). Writes bench/results/live.json.
 *
 * The viewers are spread over `--clients` child processes (one werift process saturates before the
 * SFU does). Then, in Chromium (liveGlass.ts): glass-to-glass delay and late join → first frame.
 *
 * Options: --steps=10,25,50,100,150,200  --seconds=6  --bitrate=1000000  --clients=1
 *          --pin=false (true: the SFU on core 0, the viewers' processes on the other cores)
 *          --glass-seconds=15  --joins=7  (--joins=0 skips the browser part)  --connect-timeout=15000
 *          --out=live
 */
import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { StreamForwarder, type SessionDescription } from '../api/src/live/sfu.ts';
import { startLocalStun } from '../api/src/live/localStun.ts';
import { nodeBroadcaster, nodeViewer, type NodeViewer } from '../api/src/live/nodePeers.ts';
import { option } from './lib/options.ts';
import { percentile } from './lib/stats.ts';

const self = fileURLToPath(import.meta.url);
// A viewer whose handshake takes longer means the client processes are saturated: the ramp stops there.
const CONNECT_TIMEOUT_MS = Number(option('connect-timeout', '15000'));

type ToChild =
  | { type: 'publish'; stunUrl: string }
  | { type: 'stun'; stunUrl: string }
  | { type: 'publisherAnswer'; answer: SessionDescription }
  | { type: 'watch'; id: string; offer: SessionDescription }
  | { type: 'measure'; seconds: number };
type FromChild =
  | { type: 'offer'; offer: SessionDescription }
  | { type: 'viewerAnswer'; id: string; answer: SessionDescription }
  | { type: 'connected'; id: string }
  | { type: 'measured'; delays: number[]; expected: number; received: number };

async function child() {
  let stunUrl = '';
  let caster: ReturnType<typeof nodeBroadcaster> | undefined;
  const viewers: NodeViewer[] = [];
  const send = (m: FromChild) => process.send!(m);
  process.on('message', async (m: ToChild) => {
    if (m.type === 'stun') stunUrl = m.stunUrl;
    else if (m.type === 'publish') {
      stunUrl = m.stunUrl;
      caster = nodeBroadcaster(stunUrl);
      send({ type: 'offer', offer: await caster.offer() });
    } else if (m.type === 'publisherAnswer') {
      await caster!.accept(m.answer);
      caster!.send(Number(option('bitrate', '1000000')));
    } else if (m.type === 'watch') {
      const v = nodeViewer(stunUrl);
      viewers.push(v);
      send({ type: 'viewerAnswer', id: m.id, answer: await v.answer(m.offer) });
      await v.connected;
      send({ type: 'connected', id: m.id });
    } else if (m.type === 'measure') {
      const start = viewers.map((v) => ({ received: v.received, last: v.lastSeq, delays: v.delays.length }));
      const had = viewers.length;
      await new Promise((r) => setTimeout(r, m.seconds * 1000));
      let expected = 0;
      let received = 0;
      const delays: number[] = [];
      viewers.slice(0, had).forEach((v, i) => {
        expected += v.lastSeq - start[i]!.last;
        received += v.received - start[i]!.received;
        // A sample of each viewer's delays keeps the message small.
        delays.push(...v.delays.slice(start[i]!.delays).filter((_, k) => k % 5 === 0));
      });
      send({ type: 'measured', delays, expected, received });
    }
  });
}

async function main() {
  const steps = option('steps', '10,25,50,100,150,200').split(',').map(Number);
  const seconds = Number(option('seconds', '6'));
  const stun = await startLocalStun();
  const sfu = new StreamForwarder({ stunUrl: stun.url });
  const clients = Math.max(1, Number(option('clients', '1')));
  // --pin: the SFU (this process, every thread) on core 0, the simulated viewers on the other cores,
  // as an outsider measures a server: its cost apart from its load.
  const pin = option('pin', 'false') === 'true' && os.cpus().length > 1;
  const others = `1-${os.cpus().length - 1}`;
  if (pin) execFileSync('taskset', ['-a', '-p', '-c', '0', String(process.pid)], { stdio: 'ignore' });
  const kids: ChildProcess[] = [];
  const waiters = new Map<string, (m: FromChild) => void>();
  const wait = (key: string) => new Promise<FromChild>((r) => waiters.set(key, r));
  for (let k = 0; k < clients; k++) {
    const kid = fork(self, ['--child', ...process.argv.slice(2)], { execArgv: ['--import', 'tsx'] });
    if (pin) execFileSync('taskset', ['-a', '-p', '-c', others, String(kid.pid)], { stdio: 'ignore' });
    kid.on('message', (m: FromChild) => {
      const key = 'id' in m ? `${m.type}:${m.id}` : m.type === 'measured' ? `measured:${k}` : m.type;
      waiters.get(key)?.(m);
      waiters.delete(key);
    });
    kid.send({ type: 'stun', stunUrl: stun.url } satisfies ToChild);
    kids.push(kid);
  }
  // The broadcaster in the first client; viewer i in client i mod clients.
  const ask = (m: ToChild, k = 0) => kids[k]!.send(m);

  const offered = wait('offer');
  ask({ type: 'publish', stunUrl: stun.url });
  const { offer } = (await offered) as Extract<FromChild, { type: 'offer' }>;
  ask({ type: 'publisherAnswer', answer: await sfu.publish(offer) });

  const results: Array<Record<string, number>> = [];
  let viewers = 0;
  let peakRss = 0;
  let stalled = '';
  for (const n of steps) {
    while (viewers < n && !stalled) {
      const id = `v${viewers++}`;
      const answered = wait(`viewerAnswer:${id}`);
      const connected = wait(`connected:${id}`);
      ask({ type: 'watch', id, offer: await sfu.addViewer(id) }, viewers % clients);
      const { answer } = (await answered) as Extract<FromChild, { type: 'viewerAnswer' }>;
      await sfu.answerViewer(id, answer);
      // The simulated viewers share one process: when it is saturated new ones stop connecting.
      const ok = await Promise.race([
        connected.then(() => true),
        new Promise<boolean>((r) => setTimeout(() => r(false), CONNECT_TIMEOUT_MS)),
      ]);
      if (!ok) stalled = `viewer ${viewers} did not connect within ${CONNECT_TIMEOUT_MS} ms`;
    }
    if (stalled) {
      console.log(stalled);
      break;
    }
    await new Promise((r) => setTimeout(r, 1000));
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const measured = kids.map((_, k) => wait(`measured:${k}`));
    kids.forEach((_, k) => ask({ type: 'measure', seconds }, k));
    const parts = (await Promise.all(measured)) as Array<Extract<FromChild, { type: 'measured' }>>;
    const m = {
      delays: parts.flatMap((p) => p.delays),
      expected: parts.reduce((a, p) => a + p.expected, 0),
      received: parts.reduce((a, p) => a + p.received, 0),
    };
    const cpu = process.cpuUsage(cpu0);
    const wall = performance.now() - t0;
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
    const sorted = m.delays.sort((a, b) => a - b);
    const row = {
      viewers: n,
      p50DelayMs: round(percentile(sorted, 50)),
      p99DelayMs: round(percentile(sorted, 99)),
      lossPct: round(m.expected > 0 ? Math.max(0, 100 * (1 - m.received / m.expected)) : 100),
      serverCpuPct: round((100 * (cpu.user + cpu.system)) / 1000 / wall),
      serverCpuPctPerViewer: round((100 * (cpu.user + cpu.system)) / 1000 / wall / n),
      rssMb: round(process.memoryUsage().rss / 2 ** 20),
    };
    results.push(row);
    console.log(JSON.stringify(row));
    // Past the goal the steps go on a little, to show where the server itself runs out.
    if (row.lossPct >= 5 || row.p99DelayMs >= 2000) break;
  }
  const ok = results.filter((r) => r.p99DelayMs! < 200 && r.lossPct! < 1);
  const out = {
    name: 'live',
    date: new Date().toISOString(),
    bitrate: Number(option('bitrate', '1000000')),
    seconds,
    clients,
    pinned: pin,
    note: pin
      ? `SFU in this process on core 0; broadcaster and viewers (werift) in ${clients} child process(es) on cores ${others}.`
      : `SFU in this process; broadcaster and viewers (werift) in ${clients} child process(es) on the same cores, so the clients compete with the server.`,
    maxViewersWithinGoal: ok.length ? ok[ok.length - 1]!.viewers : 0,
    stoppedBecause: stalled || undefined,
    peakRssMb: round(peakRss / 2 ** 20),
    steps: results,
  };
  for (const kid of kids) kid.kill();
  // The ramp's viewers are gone: the SFU stops sending to them before the browser part measures it.
  for (let v = 0; v < viewers; v++) sfu.removeViewer(`v${v}`);
  const joins = Number(option('joins', '7'));
  if (joins > 0) {
    // Loaded here only: the client processes run this file too and need no browser.
    const { measureGlassToGlass } = await import('./liveGlass.ts');
    // Pinned, the browser runs on the viewers' cores: it is launched while this process is there.
    const taskset = (cores: string) => execFileSync('taskset', ['-a', '-p', '-c', cores, String(process.pid)], { stdio: 'ignore' });
    const launching = async <T>(launch: () => Promise<T>): Promise<T> => {
      taskset(others);
      try {
        return await launch();
      } finally {
        taskset('0');
      }
    };
    const glass = await measureGlassToGlass({
      stunUrl: stun.url,
      seconds: Number(option('glass-seconds', '15')),
      joins,
      ...(pin ? { launching } : {}),
    });
    const d = glass.delays.sort((a, b) => a - b);
    const j = [...glass.lateJoinMs].sort((a, b) => a - b);
    Object.assign(out, {
      glassToGlass: {
        frames: d.length,
        unreadableFrames: glass.unreadable,
        p50Ms: round(percentile(d, 50)),
        p95Ms: round(percentile(d, 95)),
        note: 'Chromium canvas (640×480, 30 fps) → VP8 → this SFU → Chromium viewer, frame clock read at display time; both pages in one headless browser on this machine.',
      },
      lateJoin: {
        runs: j.map(round),
        p50Ms: round(percentile(j, 50)),
        note: 'a viewer page asks to watch → its first frame is shown (signalling, ICE, DTLS, keyframe ask), app boot excluded.',
      },
    });
    console.log(
      'glass-to-glass',
      JSON.stringify((out as Record<string, unknown>).glassToGlass),
      'late join',
      JSON.stringify((out as Record<string, unknown>).lateJoin),
    );
  }
  const dir = path.join(path.dirname(self), 'results');
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, `${option('out', 'live')}.json`), JSON.stringify(out, null, 2) + '\n');
  console.log(`max viewers within p99 < 200 ms and loss < 1 %: ${out.maxViewersWithinGoal}`);
  await sfu.close();
  await stun.close();
  process.exit(0);
}

const round = (x: number) => Math.round(x * 10) / 10;

if (process.argv.includes('--child')) void child();
else void main();
