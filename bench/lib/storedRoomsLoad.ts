/**
 * What the stored-room benches (bench:rooms, the direct part of bench:people) share: a fresh
 * PostgreSQL database the server under test migrates, people inserted straight into it (no
 * password hashing for thousands of accounts), their tokens, lean socket.io clients, and a tally
 * of deliveries that tells what arrived late, twice or never.
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import pg from 'pg';
import { notificationEvents } from '@parley/contract/notifications';
import { roomEvents as wire, type PostAnswer, type RoomMessage } from '@parley/contract/rooms';
import type { startBenchServer } from './server.ts';
import { accessTokens } from '../../api/src/auth/tokens.ts';
import { REALTIME_PROTOCOL } from '@parley/contract/protocol';
import { LeanSocket } from './leanSocket.ts';
import { sharedNow, summarize } from './stats.ts';

export type LoadUser = { userId: string; username: string; token: string };

/** A database of its own on the PostgreSQL server at `adminUrl`, and the step that drops it. */
export async function freshDatabase(adminUrl: string, name: string) {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.query(`create database ${name}`);
  await admin.end();
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

export const benchSecret = () => randomBytes(32).toString('hex');

/** A PostgreSQL pool or a PGlite database: both answer `query(text, params)` with `{ rows }`. */
export type Queryable = { query<T>(text: string, params?: unknown[]): Promise<{ rows: T[] }> };

/** `n` accounts inserted in one statement, with access tokens signed by the server's JWT_SECRET. */
export async function insertUsers(db: Queryable, n: number, secret: string, prefix: string): Promise<LoadUser[]> {
  const { rows } = await db.query<{ id: string; username: string }>(
    `insert into users (username, age, gender, is_verified)
     select $1 || g, 30, 'female', true from generate_series(1, $2::int) g returning id, username`,
    [prefix, n],
  );
  const tokens = accessTokens(new TextEncoder().encode(secret), 3600);
  return Promise.all(
    rows.map(async (r) => ({
      userId: r.id,
      username: r.username,
      token: await tokens.sign({
        userId: r.id,
        username: r.username,
        avatar: '',
        gender: 'female',
        age: 30,
        isVerified: true,
        premiumUser: 'free tier',
      }),
    })),
  );
}

/** Connects every user, a batch at a time (each handshake verifies a token). */
export async function connectAll(url: string, users: LoadUser[], batch = 100): Promise<LeanSocket[]> {
  const sockets: LeanSocket[] = [];
  for (let i = 0; i < users.length; i += batch) {
    sockets.push(
      ...(await Promise.all(
        users.slice(i, i + batch).map(
          (u) =>
            new Promise<LeanSocket>((resolve, reject) => {
              const s = new LeanSocket(url, {
                query: { userId: u.userId, username: u.username },
                auth: { token: u.token, protocol: REALTIME_PROTOCOL },
              });
              s.once('connect', () => resolve(s));
              s.once('connect_error', (err: Error) => reject(err));
            }),
        ),
      )),
    );
  }
  return sockets;
}

/** Sends an event and waits for its acknowledgement. */
export function ask<T>(s: LeanSocket, event: string, payload: unknown, ms = 15_000): Promise<T> {
  return new Promise((resolve, reject) =>
    s.timeout(ms).emit(event, payload, (err: Error | null, answer: T) => (err ? reject(err) : resolve(answer))),
  );
}

/**
 * Deliveries: every receiver records each message id it got and how long after it was sent; the
 * expected set is the stored messages times their room's receivers.
 */
export function deliveryTally() {
  const latencies: number[] = [];
  const sentAts: number[] = [];
  const got = new Map<string, Set<number>>();
  let doubled = 0;
  /** Delivery p99 by the second (from the first) its message was sent in: a tail that is a moment, or steady. */
  const bySecond = () => {
    const t0 = sentAts.reduce((a, b) => Math.min(a, b), Infinity);
    const buckets: number[][] = [];
    sentAts.forEach((t, i) => (buckets[Math.floor((t - t0) / 1000)] ??= []).push(latencies[i]!));
    return Array.from(buckets, (b) => (b ? summarize(b).p99 : null));
  };
  return {
    /** A socket `who` received message `id` of `roomId`, sent at `sentAt` (shared clock). */
    received(who: string, roomId: string, id: number, sentAt: number) {
      latencies.push(sharedNow() - sentAt);
      sentAts.push(sentAt);
      const key = `${who}|${roomId}`;
      let set = got.get(key);
      if (!set) got.set(key, (set = new Set()));
      if (set.has(id)) doubled++;
      set.add(id);
    },
    /** Of what `who` should have had in `roomId` (`ids`), how many never came. */
    missing(who: string, roomId: string, ids: Iterable<number>): number {
      const set = got.get(`${who}|${roomId}`);
      let n = 0;
      for (const id of ids) if (!set?.has(id)) n++;
      return n;
    },
    summary: () => ({ deliveries: latencies.length, doubled, latencyMs: summarize(latencies), p99BySecond: bySecond() }),
  };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Server = Awaited<ReturnType<typeof startBenchServer>>;

/** The plain socket.io reference the server registers for benches (api/src/realtime/benchReference.ts). */
const ref = { join: 'ref:join', post: 'ref:post', store: 'ref:store', message: 'ref:message' } as const;

type TrafficRoom = { roomId: string; members: LoadUser[]; posters: LoadUser[] };

/**
 * One measured phase: every poster posts every `everyMs` (random phase) for `seconds`, through
 * `post` (which answers the id the server gave, or null when refused); then what reached whom.
 */
async function phase(
  server: Server,
  rooms: TrafficRoom[],
  byUser: Map<string, LoadUser & { socket: LeanSocket }>,
  tally: ReturnType<typeof deliveryTally>,
  everyMs: number,
  seconds: number,
  post: (s: LeanSocket, roomId: string, clientId: string, text: string) => Promise<number | null>,
) {
  server.startSampling();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const stored = new Map<string, number[]>();
  let refused = 0;
  let timers: NodeJS.Timeout[] = [];
  const deadline = performance.now() + seconds * 1000;
  const pending: Array<Promise<void>> = [];
  for (const r of rooms)
    for (const p of r.posters) {
      const s = byUser.get(p.userId)!.socket;
      let n = 0;
      const tick = () => {
        if (performance.now() > deadline) return;
        const sentAt = sharedNow();
        pending.push(
          post(s, r.roomId, `${p.userId.slice(0, 8)}-${n++}`, `bench@${sentAt}`).then(
            (id) => {
              if (id !== null) (stored.get(r.roomId) ?? stored.set(r.roomId, []).get(r.roomId)!).push(id);
              else refused++;
            },
            () => void refused++,
          ),
        );
        timers.push(setTimeout(tick, everyMs));
      };
      timers.push(setTimeout(tick, Math.random() * everyMs));
    }
  await sleep(seconds * 1000 + 200);
  timers.forEach(clearTimeout);
  timers = [];
  await Promise.all(pending);
  await sleep(2000); // the last deliveries
  const usage = server.stopSampling();
  const used = process.cpuUsage(cpu0);
  const clientCpuPct = Math.round(((used.user + used.system) / 1000 / (performance.now() - t0)) * 100);
  let expected = 0;
  let lost = 0;
  for (const r of rooms) {
    const ids = stored.get(r.roomId) ?? [];
    for (const m of r.members) {
      expected += ids.length;
      lost += tally.missing(m.userId, r.roomId, ids);
    }
  }
  const posted = [...stored.values()].reduce((a, ids) => a + ids.length, 0);
  return {
    posted,
    refused,
    expectedDeliveries: expected,
    lost,
    ...tally.summary(),
    server: usage,
    clientCpuPct,
    loadAverage: os.loadavg(),
  };
}

/**
 * Rooms whose members follow them and post on a schedule; answers what arrived, late, twice or
 * never. The same sockets then do the same again through the server's plain socket.io references
 * (`ref:` events): fan-out only, then a plain app's store-then-fan-out (one awaited insert per
 * message on the same database); the answer holds all three and the ratios of their latencies.
 * `storedInDb` is counted by `countStored` when given (PGlite is counted by the caller, once the
 * server has let go of its files).
 */
export async function traffic(
  server: Server,
  rooms: TrafficRoom[],
  everyMs: number,
  seconds: number,
  opts: {
    /** The page each user has open and in front, told to the server as the PWA does (no notices about what it shows). */
    pageOf?: (u: LoadUser) => string;
    countStored?: (roomIds: string[]) => Promise<number>;
  } = {},
) {
  const all = [...new Map(rooms.flatMap((r) => r.members).map((u) => [u.userId, u])).values()];
  const sockets = await connectAll(server.url, all);
  const byUser = new Map(all.map((u, i) => [u.userId, { ...u, socket: sockets[i]! }]));
  if (opts.pageOf) for (const u of byUser.values()) u.socket.emit(notificationEvents.focus, { path: opts.pageOf(u), visible: true });
  const tally = deliveryTally();
  const refTally = deliveryTally();
  // The stored reference's ids come from a sequence: its deliveries are told apart by their flag.
  const storedRefTally = deliveryTally();
  for (const { userId, socket } of byUser.values()) {
    socket.on(wire.message, (m: RoomMessage) => tally.received(userId, m.roomId, m.id, Number(m.text.slice(m.text.indexOf('@') + 1))));
    socket.on(ref.message, (m: { room: string; id: number; t: number; stored?: boolean }) =>
      (m.stored ? storedRefTally : refTally).received(userId, m.room, m.id, m.t),
    );
  }
  for (const r of rooms)
    for (const m of r.members) {
      const s = byUser.get(m.userId)!.socket;
      const a = await ask<{ ok: boolean }>(s, wire.join, { roomId: r.roomId });
      if (!a.ok) throw new Error('join refused');
      const b = await ask<{ ok: boolean }>(s, ref.join, { room: r.roomId });
      if (!b.ok) throw new Error('reference join refused');
    }
  await sleep(1500); // the people-here broadcasts of the arrivals settle
  const storedPhase = await phase(server, rooms, byUser, tally, everyMs, seconds, async (s, roomId, clientId, text) => {
    const a = await ask<PostAnswer>(s, wire.post, { roomId, clientId, text });
    return a.ok ? a.message.id : null;
  });
  const reference = await phase(server, rooms, byUser, refTally, everyMs, seconds, async (s, room, _clientId, text) => {
    const a = await ask<{ ok: boolean; id: number }>(s, ref.post, { room, text, t: Number(text.slice(text.indexOf('@') + 1)) });
    return a.ok ? a.id : null;
  });
  const storedReference = await phase(server, rooms, byUser, storedRefTally, everyMs, seconds, async (s, room, _clientId, text) => {
    const a = await ask<{ ok: boolean; id: number }>(s, ref.store, { room, text, t: Number(text.slice(text.indexOf('@') + 1)) });
    return a.ok ? a.id : null;
  });
  const storedInDb = opts.countStored ? await opts.countStored(rooms.map((r) => r.roomId)) : null;
  for (const s of sockets) s.disconnect();
  const ratio = (a: number, b: number) => Math.round((a / b) * 100) / 100;
  return {
    ...storedPhase,
    storedInDb,
    peak: await server.status().catch(() => null),
    /** The same traffic through plain socket.io on the same server and sockets, just after. */
    reference,
    /** Stored path over reference: how many times slower. */
    ratioToReference: {
      p50: ratio(storedPhase.latencyMs.p50, reference.latencyMs.p50),
      p99: ratio(storedPhase.latencyMs.p99, reference.latencyMs.p99),
    },
    /** The same traffic stored the plain way (an awaited insert per message, then the fan-out), last. */
    storedReference,
    ratioToStoredReference: {
      p50: ratio(storedPhase.latencyMs.p50, storedReference.latencyMs.p50),
      p99: ratio(storedPhase.latencyMs.p99, storedReference.latencyMs.p99),
    },
  };
}

/** Counts the rooms' stored messages in PostgreSQL. */
export const countIn = (pool: pg.Pool) => async (roomIds: string[]) =>
  Number(
    (await pool.query<{ n: string }>(`select count(*) as n from room_messages where room_id = any($1::uuid[])`, [roomIds])).rows[0]!.n,
  );

/** The machine as a run saw it: cores, and how busy it was with other work (load average). */
export const machine = () => ({ cpus: os.cpus().length, loadAverage: os.loadavg() });
