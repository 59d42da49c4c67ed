/**
 * `npm run bench:cluster`: two API processes on PostgreSQL and Redis as one service.
 *
 * Starts two real API processes (and nginx, as the cluster test does: api/src/testing/cluster.ts)
 * on a fresh database and a Redis key prefix of their own, then, from real socket.io clients in
 * this process:
 *  1. `users` users join at `rate` a second, nobody filtering, alternately on each process (so
 *     half of each pair is on each): time to match (start → matched), and whether all matched;
 *  2. every user posts a message (`room:post`) every `message-every-ms` for `chat-seconds`:
 *     delivery time (post → the partner's page receives it), messages lost (kept by the chat but
 *     never received), not kept (refused or unanswered);
 *  3. fail-over: the second process is killed (SIGKILL) mid-chat; its clients reconnect through
 *     the proxy to the first, resume their chats and catch up from the last message they saw:
 *     time to resume (kill → resume answered) p50/p99, chats not resumed, kept messages lost.
 *  4. idle: `idle-users` more users connect at `idle-rate` a second, alternately to each process,
 *     and stay (idle apart from presence): connect p99 (socket open → connected, and → the first
 *     online page), each process's peak RSS, and how long an online-count change (one more user,
 *     then one fewer) takes to reach every one of them. The fail-over (3) then runs under that load.
 * The processes run the server bundle as `npm start` does. Needs DATABASE_URL and REDIS_URL.
 * Writes bench/results/<out>.json.
 *
 * Options (flag or env BENCH_*): --users=2000 --rate=200 --chat-seconds=10 --message-every-ms=1000
 *   --failover-users=200 --idle-users=10000 --idle-rate=500 --parts=steady,idle,failover --out=cluster
 */
import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Socket } from 'socket.io-client';
import { chatEvents, type ResumeAnswer, type RoomSetup } from '@parley/contract/matchmaking';
import { roomEvents, type JoinAnswer, type PostAnswer, type RoomMessage } from '@parley/contract/rooms';
import { presenceEvents, type OnlineUsersDelta, type OnlineUsersPage } from '@parley/contract/presence';
import { connect, startCluster, type ApiProcess, type Cluster } from '../api/src/testing/cluster.ts';
import { person, search } from '../api/src/testing/socketClients.ts';
import { readFile } from 'node:fs/promises';
import { option } from './lib/options.ts';
import { summarize } from './lib/stats.ts';

const num = (name: string, fallback: number) => Number(option(name, String(fallback)));
const opts = {
  users: num('users', 2000),
  rate: num('rate', 200),
  chatSeconds: num('chat-seconds', 10),
  messageEveryMs: num('message-every-ms', 1000),
  failoverUsers: num('failover-users', 200),
  idleUsers: num('idle-users', 10_000),
  idleRate: num('idle-rate', 500),
  parts: option('parts', 'steady,idle,failover').split(','),
  out: option('out', 'cluster'),
};
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** `delivered`: its own messages the chat kept (server ids); `received`: the partner's that reached it. */
type Client = {
  socket: Socket;
  userId: string;
  tab: string;
  roomId?: string;
  received: Set<number>;
  duplicates: number;
  delivered: number[];
  notDelivered: number;
  rtt: number[];
};

/** When each message was posted, by its client id (every client is in this process: one clock). */
const postedAt = new Map<string, { at: number; by: Client }>();

function open(s: Socket): Promise<Socket> {
  return new Promise((resolve, reject) => {
    s.once('connect', () => resolve(s));
    s.once('connect_error', reject);
  });
}

async function client(cluster: Cluster, url: string, reconnection: boolean, address?: string): Promise<Client> {
  const user = person();
  const tab = randomUUID();
  const socket = await open(connect(url, await cluster.token(user), user, { tab, reconnection, ...(address ? { address } : {}) }));
  const c: Client = { socket, userId: user.userId, tab, received: new Set(), duplicates: 0, delivered: [], notDelivered: 0, rtt: [] };
  socket.on(roomEvents.message, (m: RoomMessage) => {
    // The room sends a message to its sender's page too.
    if (m.senderId === c.userId) return;
    if (c.received.has(m.id)) c.duplicates++;
    c.received.add(m.id);
    const posted = m.clientId === null ? undefined : postedAt.get(m.clientId);
    if (posted) {
      posted.by.rtt.push(performance.now() - posted.at);
      postedAt.delete(m.clientId!);
    }
  });
  return c;
}

/** Joins `clients` at `rate` a second; resolves with each one's time to match. */
async function joinAll(clients: Client[], rate: number): Promise<{ ttm: number[]; unmatched: number }> {
  const ttm: number[] = [];
  const done = clients.map(
    (c, i) =>
      new Promise<void>((resolve) => {
        setTimeout(
          () => {
            const t0 = performance.now();
            const timer = setTimeout(resolve, 15_000);
            c.socket.once(chatEvents.matched, (r: RoomSetup) => {
              ttm.push(performance.now() - t0);
              c.roomId = r.roomId;
              clearTimeout(timer);
              // The page follows its chat's conversation, as the app's does once matched.
              c.socket.timeout(15_000).emit(roomEvents.join, { roomId: r.roomId }, () => resolve());
            });
            c.socket.emit(chatEvents.start, search());
          },
          (i * 1000) / rate,
        );
      }),
  );
  await Promise.all(done);
  return { ttm, unmatched: clients.filter((c) => !c.roomId).length };
}

/** Every client posts a message every `everyMs` while `running()`; what the chat kept is recorded. */
async function chat(clients: Client[], everyMs: number, running: () => boolean) {
  const pending: Promise<void>[] = [];
  await Promise.all(
    clients.map(async (c, i) => {
      await sleep((i * everyMs) / clients.length);
      for (let n = 0; running(); n++) {
        if (c.socket.connected && c.roomId) {
          const clientId = `${c.userId}:${n}`;
          postedAt.set(clientId, { at: performance.now(), by: c });
          pending.push(
            c.socket
              .timeout(6000)
              .emitWithAck(roomEvents.post, { roomId: c.roomId, clientId, text: `message ${n}` })
              .then(
                (answer: PostAnswer) => {
                  if (answer.ok) c.delivered.push(answer.message.id);
                  else c.notDelivered++;
                },
                () => void c.notDelivered++,
              ),
          );
        }
        await sleep(everyMs);
      }
    }),
  );
  await Promise.all(pending);
}

/** Kept by the chat but never received, over pairs (by room). */
function lost(clients: Client[]): { lost: number; duplicates: number } {
  const byRoom = new Map<string, Client[]>();
  for (const c of clients) if (c.roomId) byRoom.set(c.roomId, [...(byRoom.get(c.roomId) ?? []), c]);
  let n = 0;
  for (const members of byRoom.values()) {
    if (members.length !== 2) continue;
    const [x, y] = members as [Client, Client];
    n += x.delivered.filter((id) => !y.received.has(id)).length + y.delivered.filter((id) => !x.received.has(id)).length;
  }
  return { lost: n, duplicates: clients.reduce((a, c) => a + c.duplicates, 0) };
}

async function steady(cluster: Cluster) {
  const [p0, p1] = cluster.procs as [ApiProcess, ApiProcess];
  const clients: Client[] = [];
  const connectStart = performance.now();
  for (let i = 0; i < opts.users; i++) clients.push(await client(cluster, (i % 2 === 0 ? p0 : p1).url, false));
  const connectSeconds = (performance.now() - connectStart) / 1000;
  const { ttm, unmatched } = await joinAll(clients, opts.rate);
  let running = true;
  const chatting = chat(clients, opts.messageEveryMs, () => running);
  await sleep(opts.chatSeconds * 1000);
  running = false;
  await chatting;
  const result = {
    users: opts.users,
    rate: opts.rate,
    connectSeconds: Math.round(connectSeconds * 10) / 10,
    matched: opts.users - unmatched,
    timeToMatchMs: summarize(ttm),
    deliveryMs: summarize(clients.flatMap((c) => c.rtt)),
    notDelivered: clients.reduce((a, c) => a + c.notDelivered, 0),
    ...lost(clients),
  };
  for (const c of clients) c.socket.disconnect();
  return result;
}

async function failover(cluster: Cluster) {
  const [p0, p1] = cluster.procs as [ApiProcess, ApiProcess];
  // Clients through the proxy; nginx pins by client address (ip_hash): find one that lands on each process.
  const addressOf = async (proc: ApiProcess): Promise<string> => {
    for (let n = 0; n < 64; n++) {
      const address = `127.0.${n}.1`;
      const c = await client(cluster, cluster.proxyUrl, false, address);
      const here = await onProcess(cluster, proc, c.socket.id!);
      c.socket.disconnect();
      if (here) return address;
    }
    throw new Error('the proxy sent no client to that process');
  };
  const a0 = await addressOf(p0);
  const a1 = await addressOf(p1);
  const clients: Client[] = [];
  for (let i = 0; i < opts.failoverUsers; i++) clients.push(await client(cluster, cluster.proxyUrl, true, i % 2 === 0 ? a0 : a1));
  const { unmatched } = await joinAll(clients, opts.rate);
  const victims = clients.filter((_, i) => i % 2 === 1);
  let running = true;
  const chatting = chat(clients, 200, () => running);
  await sleep(1000);
  const killedAt = performance.now();
  const resumeMs: number[] = [];
  let notResumed = 0;
  const resumed = victims.map(
    (v) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          notResumed++;
          resolve();
        }, 20_000);
        v.socket.io.once('reconnect', () => {
          v.socket.emitWithAck(chatEvents.resume, { roomId: v.roomId }).then(
            async (a: ResumeAnswer) => {
              if (a.ok) {
                resumeMs.push(performance.now() - killedAt);
                // Back in its chat, the page catches up from the last message it saw.
                // A long absence comes a page at a time (`hasNewer`), as the app reads it.
                let after = Math.max(0, ...v.received);
                for (;;) {
                  const caught = (await v.socket
                    .timeout(15_000)
                    .emitWithAck(roomEvents.join, { roomId: v.roomId, after })
                    .catch(() => null)) as JoinAnswer | null;
                  if (!caught?.ok) break;
                  for (const m of caught.messages) if (m.senderId !== v.userId) v.received.add(m.id);
                  if (!caught.hasNewer || caught.messages.length === 0) break;
                  after = Math.max(...caught.messages.map((m) => m.id));
                }
              } else notResumed++;
              clearTimeout(timer);
              resolve();
            },
            () => undefined,
          );
        });
      }),
  );
  p1.child.kill('SIGKILL');
  await Promise.all(resumed);
  await sleep(1000);
  running = false;
  await chatting;
  const result = {
    users: opts.failoverUsers,
    matched: opts.failoverUsers - unmatched,
    affected: victims.length,
    resumeMs: summarize(resumeMs),
    notResumed,
    notDelivered: clients.reduce((a, c) => a + c.notDelivered, 0),
    ...lost(clients),
  };
  for (const c of clients) c.socket.disconnect();
  return result;
}

type IdleClient = { socket: Socket; count: number; countAt: number };

/** A process's peak resident memory (VmHWM) so far, in MB. */
async function peakRssMb(proc: ApiProcess): Promise<number | null> {
  const status = await readFile(`/proc/${proc.child.pid}/status`, 'utf8').catch(() => '');
  const kb = /VmHWM:\s+(\d+) kB/.exec(status)?.[1];
  return kb ? Math.round(Number(kb) / 102.4) / 10 : null;
}

/** When every idle client has seen the online count become `count` (ms after `from`), or null after 10 s. */
async function everyoneSees(clients: IdleClient[], count: number, from: number): Promise<number | null> {
  const deadline = performance.now() + 10_000;
  while (performance.now() < deadline) {
    if (clients.every((c) => c.count === count)) return Math.max(...clients.map((c) => c.countAt)) - from;
    await sleep(20);
  }
  return null;
}

/**
 * `idle-users` users connect at `idle-rate` a second, alternately to each process, and stay
 * connected (presence only). Answers the figures and the clients, left connected for the fail-over.
 */
async function idle(cluster: Cluster) {
  const [p0, p1] = cluster.procs as [ApiProcess, ApiProcess];
  const clients: IdleClient[] = [];
  const connectMs: number[] = [];
  const firstPageMs: number[] = [];
  let failed = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: opts.idleUsers }, async (_, i) => {
      await sleep((i * 1000) / opts.idleRate);
      const user = person();
      const token = await cluster.token(user);
      const t0 = performance.now();
      const socket = connect((i % 2 === 0 ? p0 : p1).url, token, user, { tab: randomUUID() });
      const c: IdleClient = { socket, count: 0, countAt: 0 };
      const counted = (count: number) => {
        c.count = count;
        c.countAt = performance.now();
      };
      socket.on(presenceEvents.onlineUsersDelta, (d: OnlineUsersDelta) => counted(d.count));
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          failed++;
          resolve();
        }, 15_000);
        socket.once('connect', () => connectMs.push(performance.now() - t0));
        socket.once(presenceEvents.onlineUsers, (page: OnlineUsersPage) => {
          firstPageMs.push(performance.now() - t0);
          counted(page.count);
          clearTimeout(timer);
          resolve();
        });
        socket.once('connect_error', () => {
          failed++;
          clearTimeout(timer);
          resolve();
        });
      });
      clients.push(c);
    }),
  );
  const connectSeconds = (performance.now() - started) / 1000;
  await sleep(3000); // the arrivals' deltas settle
  const settled = clients.every((c) => c.count === opts.idleUsers);
  // One more user comes online, then goes: how long until every idle client shows each count.
  const extraUser = person();
  const t0 = performance.now();
  const extra = await open(connect(p0.url, await cluster.token(extraUser), extraUser, { tab: randomUUID() }));
  const upMs = await everyoneSees(clients, opts.idleUsers + 1, t0);
  const t1 = performance.now();
  extra.disconnect();
  const downMs = await everyoneSees(clients, opts.idleUsers, t1);
  const result = {
    users: opts.idleUsers,
    rate: opts.idleRate,
    connectSeconds: Math.round(connectSeconds * 10) / 10,
    failed,
    connectMs: summarize(connectMs),
    firstOnlinePageMs: summarize(firstPageMs),
    countSettledAtAll: settled,
    countChangeVisibleToAllMs: { up: upMs, down: downMs },
    peakRssMb: [await peakRssMb(p0), await peakRssMb(p1)],
  };
  return { result, clients };
}

/** Whether a socket is one of this process's (its presence record in Redis). */
async function onProcess(cluster: Cluster, proc: ApiProcess, socketId: string): Promise<boolean> {
  const { createRedis, closeRedis } = await import('../api/src/platform/redis.ts');
  const redis = createRedis(process.env.REDIS_URL!);
  try {
    // A socket opened directly on the process names its instance.
    const probe = await client(cluster, proc.url, false);
    let mine: string | undefined;
    let found: string | undefined;
    for (let i = 0; i < 60 && (!mine || !found); i++) {
      for (const key of await redis.keys(`${cluster.prefix}pr:sockets:*`)) {
        if (await redis.hexists(key, probe.socket.id!)) mine = key;
        if (await redis.hexists(key, socketId)) found = key;
      }
      await sleep(50);
    }
    probe.socket.disconnect();
    return mine !== undefined && mine === found;
  } finally {
    await closeRedis(redis);
  }
}

async function main() {
  if (!process.env.DATABASE_URL || !process.env.REDIS_URL) throw new Error('bench:cluster needs DATABASE_URL and REDIS_URL');
  const cluster = await startCluster({ basePort: Number(process.env.BENCH_PORT ?? 4750), logLevel: 'error' });
  try {
    const out: Record<string, unknown> = {
      when: new Date().toISOString(),
      machine: { cpus: os.cpus().length, loadavg: os.loadavg() },
      options: opts,
    };
    if (opts.parts.includes('steady')) {
      out.steady = await steady(cluster);
      console.log('steady', JSON.stringify(out.steady));
    }
    let idlers: IdleClient[] = [];
    if (opts.parts.includes('idle')) {
      const { result, clients } = await idle(cluster);
      idlers = clients;
      out.idle = result;
      console.log('idle', JSON.stringify(result));
    }
    if (opts.parts.includes('failover')) {
      out.failover = { ...(await failover(cluster)), idleConnected: idlers.length };
      console.log('failover', JSON.stringify(out.failover));
    }
    for (const c of idlers) c.socket.disconnect();
    out.peakRssMb = await Promise.all(cluster.procs.map(peakRssMb));
    await mkdir(path.join(repoRoot, 'bench/results'), { recursive: true });
    await writeFile(path.join(repoRoot, `bench/results/${opts.out}.json`), JSON.stringify(out, null, 2) + '\n');
  } finally {
    await cluster.close();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
