import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import type { Socket } from 'socket.io-client';
import type { TokenUser } from '@parley/contract/auth';
import { chatEvents, type ResumeAnswer, type RoomSetup } from '@parley/contract/matchmaking';
import { connectionEvents, type Restarting } from '@parley/contract/protocol';
import { isRetryableRoomRefusal, roomEvents, type JoinAnswer, type PostAnswer, type RoomMessage } from '@parley/contract/rooms';
import type { Redis } from './platform/redis.ts';
import { clusterClients, connect, startCluster, type ApiProcess, type Cluster, type ClusterClients } from './testing/cluster.ts';
import { next, person, search } from './testing/socketClients.ts';

/**
 * A rolling deploy of two API processes behind nginx (deploy/nginx) under chat load: 1:1 pairs
 * (split over the two processes, and both on one), a group room and a direct conversation post
 * all along while each process in turn gets SIGTERM, drains, exits and starts again. Every
 * message a sender had acknowledged reaches every other member exactly once (live or by catch-up
 * from its last id), every 1:1 chat goes on, and the longest silence a user saw is logged.
 */
let rig: ClusterClients;
let cluster: Cluster;
let redis: Redis;

beforeAll(async () => {
  rig = clusterClients(await startCluster());
  ({ cluster, redis } = rig);
}, 120_000);
afterAll(() => rig?.close());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A page as the PWA runs it: a tab id, an outbox that resends under the same client id, catch-up by last id. */
type Page = {
  user: TokenUser;
  socket: Socket;
  roomId: string;
  pair: boolean;
  /** Ids of others' messages it has, live or caught up, and how many times each came live. */
  seen: Set<number>;
  duplicates: number;
  /** Its own messages the room acknowledged. */
  acked: number[];
  /** Posting resumes once the page rejoined (and took its 1:1 chat back). */
  ready: boolean;
  resumes: number;
  resumeFailures: string[];
  /** Posts refused for good (none expected: a refusal while moving is retryable). */
  refused: string[];
  /** Connection errors on the way (diagnostics). */
  errors: string[];
  /** When others' messages arrived: the longest silence in between is what the user saw. */
  lastArrival: number;
  longestGap: number;
  moves: number;
};

const pages: Page[] = [];

/** Local addresses the proxy (ip_hash) sends to each process, found once by probing. */
const addressOf = new Map<ApiProcess, string>();
async function findAddresses() {
  for (const proc of cluster.procs.slice(0, 2)) addressOf.set(proc, await rig.proxyAddressOf(proc));
  expect(new Set(addressOf.values()).size).toBe(2);
}

function arrived(p: Page, messages: RoomMessage[], live: boolean) {
  for (const m of messages) {
    if (m.senderId === p.user.userId) continue;
    if (p.seen.has(m.id)) {
      if (live) p.duplicates++;
      continue;
    }
    p.seen.add(m.id);
    const t = Date.now();
    if (p.lastArrival > 0) p.longestGap = Math.max(p.longestGap, t - p.lastArrival);
    p.lastArrival = t;
  }
}

/** Opens the room from the last id the page holds, a page at a time (what the app's catch-up does). */
async function catchUp(p: Page) {
  let after = Math.max(0, ...p.seen);
  for (;;) {
    const a = (await p.socket.timeout(8000).emitWithAck(roomEvents.join, { roomId: p.roomId, after })) as JoinAnswer;
    if (!a.ok) throw new Error(`join refused: ${a.code}`);
    arrived(p, a.messages, false);
    if (!a.hasNewer || a.messages.length === 0) return;
    after = Math.max(...a.messages.map((m) => m.id));
  }
}

/** A page through the proxy on `proc`'s address, which follows a restart notice as the PWA does. */
async function openPage(user: TokenUser, proc: ApiProcess): Promise<Page> {
  const socket = await rig.open(
    connect(cluster.proxyUrl, await cluster.token(user), user, { tab: randomUUID(), reconnection: true, address: addressOf.get(proc)! }),
  );
  const p: Page = {
    user,
    socket,
    roomId: '',
    pair: false,
    seen: new Set(),
    duplicates: 0,
    acked: [],
    ready: false,
    resumes: 0,
    resumeFailures: [],
    refused: [],
    errors: [],
    lastArrival: 0,
    longestGap: 0,
    moves: 0,
  };
  socket.on(roomEvents.message, (m: RoomMessage) => arrived(p, [m], true));
  // The server restarts: reconnect at a random moment within its window (pwa/src/realtime/socket.ts).
  socket.on(connectionEvents.restarting, (r: Restarting) => {
    p.moves++;
    setTimeout(() => socket.io.engine?.close(), Math.random() * r.reconnectWithinMs);
  });
  socket.on('disconnect', () => (p.ready = false));
  socket.on('connect_error', (err: Error) => p.errors.push(`${Date.now() % 100000} ${err.message}`));
  socket.io.on('reconnect_failed', () => p.errors.push('reconnect_failed'));
  socket.io.on('reconnect', () => {
    void (async () => {
      if (p.pair) {
        p.resumes++;
        const r = (await socket.timeout(8000).emitWithAck(chatEvents.resume, { roomId: p.roomId })) as ResumeAnswer;
        if (!r.ok) p.resumeFailures.push(JSON.stringify(r));
      }
      await catchUp(p);
      p.ready = true;
    })().catch((err: unknown) => p.resumeFailures.push(String(err)));
  });
  pages.push(p);
  return p;
}

let sending = true;
/** Posts every `everyMs`, one at a time; what is not acknowledged (or refused as retryable) goes again under its client id. */
async function sendLoop(p: Page, everyMs: number) {
  let pending: { clientId: string; text: string } | undefined;
  for (let n = 0; sending;) {
    pending ??= { clientId: `${p.user.userId.slice(0, 8)}-${n++}`, text: `m${n}` };
    if (p.ready && p.socket.connected) {
      try {
        const a = (await p.socket.timeout(6000).emitWithAck(roomEvents.post, { roomId: p.roomId, ...pending })) as PostAnswer;
        if (a.ok) {
          p.acked.push(a.message.id);
          pending = undefined;
        } else if (!isRetryableRoomRefusal(a.code)) {
          p.refused.push(`${a.code}: ${a.message}`);
          pending = undefined;
        }
      } catch {
        // No answer (the connection moved): sent again once back.
      }
    }
    await sleep(everyMs);
  }
}

describe('a rolling deploy of two processes behind nginx', () => {
  it('loses no acknowledged message, resumes every 1:1 chat, and catches the group and direct rooms up', async () => {
    await findAddresses();
    const [p0, p1] = cluster.procs as [ApiProcess, ApiProcess];
    // 1:1 pairs: split both ways, and both members on one process (each process).
    const placements: Array<[ApiProcess, ApiProcess]> = [
      [p0, p1],
      [p1, p0],
      [p0, p0],
      [p1, p1],
    ];
    for (const [a, b] of placements) {
      const first = await openPage(person(), a);
      const second = await openPage(person(), b);
      const setups = [first, second].map((p) => next<RoomSetup>(p.socket, chatEvents.matched, () => true, 10_000));
      const waiting = next(first.socket, chatEvents.searching);
      first.socket.emit(chatEvents.start, search());
      await waiting;
      second.socket.emit(chatEvents.start, search());
      const [r] = await Promise.all(setups);
      for (const p of [first, second]) Object.assign(p, { roomId: r!.roomId, pair: true });
    }
    // A group room of three and a direct conversation of two, members on both processes.
    const http = async (p: Page, path: string, json: unknown) => {
      const res = await fetch(`${cluster.proxyUrl}/api${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${await cluster.token(p.user)}`, 'content-type': 'application/json' },
        body: JSON.stringify(json),
      });
      if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      return (await res.json()) as { roomId: string };
    };
    const group = [await openPage(person(), p0), await openPage(person(), p1), await openPage(person(), p0)];
    const { roomId: groupId } = await http(group[0]!, '/groups', { name: 'Rolling deploy', category: 'Music' });
    for (const p of group.slice(1)) await http(p, `/groups/${groupId}/join`, {});
    const direct = [await openPage(person(), p1), await openPage(person(), p0)];
    const db = new pg.Client({ connectionString: cluster.dbUrl });
    await db.connect();
    const [low, high] = direct.map((p) => p.user.userId).sort();
    await db.query('insert into friendships (user_low, user_high) values ($1, $2)', [low, high]);
    await db.end();
    const { roomId: directId } = await http(direct[0]!, `/direct/${direct[1]!.user.username}`, {});
    for (const p of group) p.roomId = groupId;
    for (const p of direct) p.roomId = directId;
    for (const p of pages) {
      await catchUp(p);
      p.ready = true;
    }

    // Under each kind's allowance: a 1:1 chat's per person, a stored room's one a second per member.
    const senders = pages.map((p) => sendLoop(p, p.pair ? 200 : 1100));
    await sleep(1500);
    const restarts = [];
    for (const proc of [p0, p1]) {
      const began = Date.now();
      restarts.push({ ...(await cluster.restart(proc)), upMs: Date.now() - began });
      // The proxy tries the restarted process again (fail_timeout) and pages settle, as a deploy waits for readiness.
      await sleep(2500);
    }
    const settledAcks = pages.map((p) => p.acked.length);
    await sleep(1500);
    sending = false;
    await Promise.all(senders);

    for (const r of restarts) {
      expect(r.code).toBe(0);
      // Drained well within SHUTDOWN_GRACE_MS (25 s).
      expect(r.stopMs).toBeLessThan(10_000);
    }
    // Every page was told to move at least once, came back, took its 1:1 chat back and posts again.
    const state = pages.map((p, i) => ({
      i,
      pair: p.pair,
      moves: p.moves,
      resumes: p.resumes,
      ready: p.ready,
      connected: p.socket.connected,
      acked: p.acked.length,
      settled: settledAcks[i],
      failures: p.resumeFailures,
      errors: p.errors.slice(-6),
      refused: p.refused.slice(0, 3),
    }));
    // What a failure below needs to be understood (CLUSTER_KEEP_DIR keeps the processes' logs too).
    const troubled = state.filter((x) => !x.ready || x.failures.length > 0 || x.refused.length > 0);
    if (troubled.length > 0) console.error('restarts', restarts, JSON.stringify(troubled));
    for (const p of pages.filter((x) => x.refused.length > 0))
      console.error(
        'shared record of a refusing chat',
        p.socket.id,
        p.roomId,
        JSON.stringify(await redis.hgetall(`${cluster.prefix}room:${p.roomId}`)),
        await redis.keys(`${cluster.prefix}inst:*`),
      );
    for (const [i, p] of pages.entries()) {
      expect(p.resumeFailures).toEqual([]);
      expect(p.refused).toEqual([]);
      expect(p.moves).toBeGreaterThanOrEqual(1);
      expect(p.ready).toBe(true);
      expect(p.acked.length).toBeGreaterThan(settledAcks[i]!);
    }
    // Caught up by last id, every acknowledged message of every other member is there, each once.
    for (const p of pages) await catchUp(p);
    let acked = 0;
    for (const p of pages) {
      expect(p.duplicates).toBe(0);
      for (const other of pages.filter((o) => o !== p && o.roomId === p.roomId)) {
        acked += other.acked.length;
        expect(other.acked.filter((id) => !p.seen.has(id))).toEqual([]);
      }
    }
    // The 1:1 chats are held by a process that runs now.
    const live = new Set(
      await Promise.all(pages.filter((p) => p.pair).map((p) => redis.hget(`${cluster.prefix}room:${p.roomId}`, 'holder'))),
    );
    const instances = new Set((await redis.keys(`${cluster.prefix}inst:*`)).map((k) => k.slice(`${cluster.prefix}inst:`.length)));
    for (const holder of live) expect(instances.has(holder!)).toBe(true);

    const longest = Math.max(...pages.map((p) => p.longestGap));
    console.log(
      `rolling deploy: ${acked} acknowledged messages checked, none lost; drains ${restarts.map((r) => `${r.stopMs} ms`).join(', ')}; ` +
        `longest gap a user saw ${longest} ms (per user: ${pages.map((p) => p.longestGap).join(', ')})`,
    );
  }, 200_000);
});
