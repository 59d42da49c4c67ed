/**
 * `npm run bench:relay`: what this machine allows, apart from Parley. A bare `ws` relay (no
 * socket.io, no application) under the chat bench's steady load: 2000 users in pairs over
 * WebSockets from three client processes, one message a second each at a random phase, the
 * partner answering at once; round trip = send → answer received, as in `bench:chat`.
 *
 * Three variants: no delivery receipts (2 packets through the server per message); receipts
 * (the receiver acknowledges each message and the server passes that back, 4 packets, as
 * Parley's chat does); receipts with each socket's writes of one event-loop turn coalesced
 * (api/src/realtime/coalesce.ts does that for socket.io). Writes bench/results/relay.json.
 *
 * Options: --users=2000  --seconds=20  --workers=3  --variants=plain,receipts,coalesced  --out=relay
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import type { AddressInfo, Socket as NetSocket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket, { WebSocketServer } from 'ws';
import { calibrate } from './lib/calibrate.ts';
import { machineCpu } from './lib/machineCpu.ts';
import { option } from './lib/options.ts';
import { summarize } from './lib/stats.ts';

const self = fileURLToPath(import.meta.url);

type Variant = 'plain' | 'receipts' | 'coalesced';
type ToChild = { type: 'go'; seconds: number };
type FromChild = { type: 'listening'; port: number } | { type: 'open' } | { type: 'done'; asked: number; roundTrips: number[] };

/** The relay: a message `to|kind|from|t` goes to the socket of user `to`. */
function serve(coalesce: boolean) {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1', perMessageDeflate: false });
  const byUser = new Map<string, WebSocket>();
  const corked = new Set<NetSocket>();
  let scheduled = false;
  const uncorkAll = () => {
    scheduled = false;
    for (const s of corked) s.uncork();
    corked.clear();
  };
  wss.on('connection', (ws, req) => {
    const id = new URL(req.url ?? '/', 'http://relay').searchParams.get('id') ?? '';
    byUser.set(id, ws);
    ws.on('message', (data) => {
      const text = String(data);
      const to = byUser.get(text.slice(0, text.indexOf('|')));
      if (!to) return;
      if (coalesce) {
        const raw = (to as unknown as { _socket: NetSocket })._socket;
        if (!corked.has(raw)) {
          raw.cork();
          corked.add(raw);
          if (!scheduled) {
            scheduled = true;
            setImmediate(uncorkAll);
          }
        }
      }
      to.send(text);
    });
    ws.on('close', () => byUser.delete(id));
  });
  wss.on('listening', () => process.send!({ type: 'listening', port: (wss.address() as AddressInfo).port } satisfies FromChild));
}

/** Users `from`..`to` (pairs: 2k and 2k+1). */
function clients(port: number, from: number, to: number, receipts: boolean) {
  const roundTrips: number[] = [];
  let asked = 0;
  const socks: Array<{ ws: WebSocket; id: number }> = [];
  let open = 0;
  for (let id = from; id < to; id++) {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/?id=${id}`, { perMessageDeflate: false });
    ws.on('open', () => {
      if (++open === to - from) process.send!({ type: 'open' } satisfies FromChild);
    });
    ws.on('message', (data) => {
      const [, kind, origin, t] = String(data).split('|');
      if (kind === 'receipt') return;
      if (receipts) ws.send(`${origin}|receipt|${id}|${t}`);
      if (kind === 'ask') ws.send(`${origin}|answer|${id}|${t}`);
      else roundTrips.push(performance.now() - Number(t));
    });
    socks.push({ ws, id });
  }
  process.on('message', (m: ToChild) => {
    for (const { ws, id } of socks) {
      const ask = () => {
        asked++;
        ws.send(`${id ^ 1}|ask|${id}|${performance.now()}`);
      };
      setTimeout(() => {
        ask();
        const every = setInterval(ask, 1000);
        setTimeout(() => clearInterval(every), m.seconds * 1000 - 1);
      }, Math.random() * 1000);
    }
    // Answers still in flight have 2 s to arrive; the rest count as lost.
    setTimeout(() => process.send!({ type: 'done', asked, roundTrips } satisfies FromChild), m.seconds * 1000 + 2000);
  });
}

const next = (child: ChildProcess, type: FromChild['type']) =>
  new Promise<FromChild>((resolve) => {
    const on = (m: FromChild) => {
      if (m.type !== type) return;
      child.off('message', on);
      resolve(m);
    };
    child.on('message', on);
  });
const cpuSeconds = (pid: number) => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // utime and stime: fields 14 and 15
  return (Number(f[11]) + Number(f[12])) / 100;
};

async function run(variant: Variant, users: number, seconds: number, workers: number) {
  const spawn = (...args: string[]) => fork(self, args, { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const server = spawn('--role=server', `--coalesce=${variant === 'coalesced'}`);
  const { port } = (await next(server, 'listening')) as { port: number };
  const per = Math.ceil(users / workers / 2) * 2;
  const kids = Array.from({ length: workers }, (_, w) =>
    spawn(
      '--role=clients',
      `--port=${port}`,
      `--from=${w * per}`,
      `--to=${Math.min(users, (w + 1) * per)}`,
      `--receipts=${variant !== 'plain'}`,
    ),
  );
  await Promise.all(kids.map((k) => next(k, 'open')));
  const cpu0 = cpuSeconds(server.pid!);
  const machine = machineCpu();
  const done = kids.map((k) => next(k, 'done'));
  for (const k of kids) k.send({ type: 'go', seconds } satisfies ToChild);
  const reports = (await Promise.all(done)) as Array<{ asked: number; roundTrips: number[] }>;
  const roundTrips = reports.flatMap((m) => m.roundTrips);
  const asked = reports.reduce((a, m) => a + m.asked, 0);
  const serverCpuPct = Math.round(((cpuSeconds(server.pid!) - cpu0) / (seconds + 2)) * 100);
  const machineCpuDuring = machine();
  for (const c of [server, ...kids]) c.kill();
  return { variant, roundTripMs: summarize(roundTrips), asked, answered: roundTrips.length, serverCpuPct, machineCpu: machineCpuDuring };
}

async function main() {
  const users = Number(option('users', '2000'));
  const seconds = Number(option('seconds', '20'));
  const workers = Number(option('workers', '3'));
  const variants = option('variants', 'plain,receipts,coalesced').split(',') as Variant[];
  const calibration = await calibrate();
  const results = [];
  for (const v of variants) {
    const r = await run(v, users, seconds, workers);
    results.push(r);
    console.log(
      `relay ${v}: ${users} users, ${seconds} s — round trip p50 ${r.roundTripMs.p50} ms p99 ${r.roundTripMs.p99} ms max ${r.roundTripMs.max} ms (${r.answered} of ${r.asked} answered), server CPU ${r.serverCpuPct}%, steal ${r.machineCpu?.stealPct ?? '?'}%`,
    );
  }
  const out = path.join(path.dirname(self), 'results', `${option('out', 'relay')}.json`);
  await mkdir(path.dirname(out), { recursive: true });
  const machine = { cpus: os.cpus().length, model: os.cpus()[0]?.model, node: process.version, calibration };
  await writeFile(
    out,
    `${JSON.stringify({ bench: 'relay', started: new Date().toISOString(), machine, users, seconds, workers, results }, null, 2)}\n`,
  );
  console.log(`wrote ${path.relative(process.cwd(), out)}`);
}

const role = option('role', 'main');
if (role === 'server') serve(option('coalesce', 'false') === 'true');
else if (role === 'clients') {
  const n = (k: string) => Number(option(k, '0'));
  clients(n('port'), n('from'), n('to'), option('receipts', 'false') === 'true');
} else await main();
