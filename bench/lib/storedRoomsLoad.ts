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
import { LeanSocket } from './leanSocket.ts';
import { sharedNow, summarize } from './stats.ts';
import { REALTIME_PROTOCOL } from '@parley/contract/protocol';

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

/** `n` accounts inserted in one statement, with access tokens signed by the server's JWT_SECRET. */
export async function insertUsers(db: pg.Pool, n: number, secret: string, prefix: string): Promise<LoadUser[]> {
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
              const s = new LeanSocket(url, { query: { userId: u.userId, username: u.username }, auth: { token: u.token, protocol: REALTIME_PROTOCOL } });
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
  const got = new Map<string, Set<number>>();
  let doubled = 0;
  return {
    /** A socket `who` received message `id` of `roomId`, sent at `sentAt` (shared clock). */
    received(who: string, roomId: string, id: number, sentAt: number) {
      latencies.push(sharedNow() - sentAt);
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
    summary: () => ({ deliveries: latencies.length, doubled, latencyMs: summarize(latencies) }),
  };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Server = Awaited<ReturnType<typeof startBenchServer>>;

/** Rooms whose members follow them and post on a schedule; answers what arrived, late, twice or never. */
export async function traffic(
  server: Server,
  pool: pg.Pool,
  rooms: Array<{ roomId: string; members: LoadUser[]; posters: LoadUser[] }>,
  everyMs: number,
  seconds: number,
  /** The page each user has open and in front, told to the server as the PWA does (no notices about what it shows). */
  pageOf?: (u: LoadUser) => string,
) {
  const all = [...new Map(rooms.flatMap((r) => r.members).map((u) => [u.userId, u])).values()];
  const sockets = await connectAll(server.url, all);
  const byUser = new Map(all.map((u, i) => [u.userId, sockets[i]!]));
  if (pageOf) for (const u of all) byUser.get(u.userId)!.emit(notificationEvents.focus, { path: pageOf(u), visible: true });
  const tally = deliveryTally();
  for (const [userId, s] of byUser)
    s.on(wire.message, (m: RoomMessage) => tally.received(userId, m.roomId, m.id, Number(m.text.slice(m.text.indexOf('@') + 1))));
  for (const r of rooms)
    for (const m of r.members) {
      const a = await ask<{ ok: boolean }>(byUser.get(m.userId)!, wire.join, { roomId: r.roomId });
      if (!a.ok) throw new Error('join refused');
    }
  await sleep(1500); // the people-here broadcasts of the arrivals settle
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
      const s = byUser.get(p.userId)!;
      let n = 0;
      const tick = () => {
        if (performance.now() > deadline) return;
        const sentAt = sharedNow();
        pending.push(
          ask<PostAnswer>(s, wire.post, { roomId: r.roomId, clientId: `${p.userId.slice(0, 8)}-${n++}`, text: `bench@${sentAt}` }).then(
            (a) => {
              if (a.ok) (stored.get(r.roomId) ?? stored.set(r.roomId, []).get(r.roomId)!).push(a.message.id);
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
  const storedCount = Number(
    (
      await pool.query<{ n: string }>(`select count(*) as n from room_messages where room_id = any($1::uuid[])`, [
        rooms.map((r) => r.roomId),
      ])
    ).rows[0]!.n,
  );
  for (const s of sockets) s.disconnect();
  const posted = [...stored.values()].reduce((a, ids) => a + ids.length, 0);
  return {
    posted,
    refused,
    storedInDb: storedCount,
    expectedDeliveries: expected,
    lost,
    ...tally.summary(),
    server: usage,
    clientCpuPct,
    loadAverage: os.loadavg(),
    peak: await server.status().catch(() => null),
  };
}

/** The machine as a run saw it: cores, and how busy it was with other work (load average). */
export const machine = () => ({ cpus: os.cpus().length, loadAverage: os.loadavg() });
