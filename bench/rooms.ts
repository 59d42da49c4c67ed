/**
 * `npm run bench:rooms`: group rooms under load, on the real server (bundled, as `npm start` runs
 * it) over PostgreSQL, with lean socket.io clients in this process.
 *
 * - big: one room of 1,000 members, 20 of them posting one message a second: every member follows
 *   the room; delivery = post → received by a member; every stored message must reach all 1,000.
 * - many: 200 rooms of 10 members, each member one message every 5 s.
 * - history: 1,000,000 messages stored in one room, pages of 50 older messages at random places:
 *   through the API on PostgreSQL, and at the store on PostgreSQL and on PGlite (in this process).
 * Peak RSS and CPU of the server for each. Writes bench/results/rooms.json.
 *
 * Options: --scenarios=big,many,history  --seconds=20  --database-url=postgres://postgres@127.0.0.1:5432/postgres
 *   --history-messages=1000000  --history-pages=500  --out=rooms
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { option } from './lib/options.ts';
import { startBenchServer } from './lib/server.ts';
import { summarize } from './lib/stats.ts';
import {
  machine,
  benchSecret,
  countIn,
  freshDatabase,
  insertUsers,
  traffic,
  type LoadUser,
  type Queryable,
} from './lib/storedRoomsLoad.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const num = (name: string, fallback: number) => Number(option(name, String(fallback)));
const opts = {
  scenarios: option('scenarios', 'big,many,history').split(','),
  seconds: num('seconds', 20),
  databaseUrl: option('database-url', process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'),
  historyMessages: num('history-messages', 1_000_000),
  historyPages: num('history-pages', 500),
  out: option('out', 'rooms'),
};

/** A server on a database of its own; `pool` reaches that database directly. */
async function setUp(name: string) {
  const db = await freshDatabase(opts.databaseUrl, `parley_bench_${name}_${process.pid}`);
  const secret = benchSecret();
  const server = await startBenchServer(repoRoot, { DATABASE_URL: db.url, JWT_SECRET: secret });
  const pool = new pg.Pool({ connectionString: db.url, max: 4 });
  return {
    server,
    pool,
    secret,
    async tearDown() {
      await pool.end();
      await server.stop();
      await db.drop();
    },
  };
}

async function groupRoom(pool: pg.Pool, owner: LoadUser, members: LoadUser[], capacity: number): Promise<string> {
  const { rows } = await pool.query<{ id: string }>(
    `insert into stored_rooms (kind, name, category, owner_id, capacity) values ('group', 'Bench room', 'Tech', $1, $2) returning id`,
    [owner.userId, capacity],
  );
  const roomId = rows[0]!.id;
  await pool.query(
    `insert into room_members (room_id, user_id, role) select $1, u, case when u = $2::uuid then 'owner' else 'member' end from unnest($3::uuid[]) u`,
    [roomId, owner.userId, members.map((m) => m.userId)],
  );
  return roomId;
}

async function big() {
  const env = await setUp('big');
  try {
    const users = await insertUsers(env.pool as unknown as Queryable, 1000, env.secret, 'big');
    const roomId = await groupRoom(env.pool, users[0]!, users, 1000);
    const r = await traffic(env.server, [{ roomId, members: users, posters: users.slice(0, 20) }], 1000, opts.seconds, {
      countStored: countIn(env.pool),
    });
    console.log(
      `rooms big: ${r.posted} posted, ${r.lost} lost of ${r.expectedDeliveries}, delivery p50 ${r.latencyMs.p50} / p99 ${r.latencyMs.p99} ms (goal < 50), server peak RSS ${r.server.peakRssMb} MB, CPU avg ${r.server.avgCpuPct} %; reference p50 ${r.reference.latencyMs.p50} / p99 ${r.reference.latencyMs.p99} ms, ratio p99 ${r.ratioToReference.p99} (goal ≤ 1.5); stored plainly p99 ${r.storedReference.latencyMs.p99} ms`,
    );
    return { goalP99Ms: 50, goalRatioP99: 1.5, ...r };
  } finally {
    await env.tearDown();
  }
}

async function many() {
  const env = await setUp('many');
  try {
    const users = await insertUsers(env.pool as unknown as Queryable, 2000, env.secret, 'many');
    const rooms = [];
    for (let i = 0; i < 200; i++) {
      const members = users.slice(i * 10, i * 10 + 10);
      rooms.push({ roomId: await groupRoom(env.pool, members[0]!, members, 10), members, posters: members });
    }
    const r = await traffic(env.server, rooms, 5000, opts.seconds, { countStored: countIn(env.pool) });
    console.log(
      `rooms many: ${r.posted} posted, ${r.lost} lost of ${r.expectedDeliveries}, delivery p50 ${r.latencyMs.p50} / p99 ${r.latencyMs.p99} ms (goal < 20), server peak RSS ${r.server.peakRssMb} MB, CPU avg ${r.server.avgCpuPct} %; reference p50 ${r.reference.latencyMs.p50} / p99 ${r.reference.latencyMs.p99} ms, ratio p99 ${r.ratioToReference.p99}; stored plainly p99 ${r.storedReference.latencyMs.p99} ms`,
    );
    return { goalP99Ms: 20, ...r };
  } finally {
    await env.tearDown();
  }
}

/** Fills a room with `n` messages in one statement (ids 1..n), as years of talk would. */
const FILL = `insert into room_messages (room_id, id, sender_id, text, created_at)
  select $1, g, $2, 'message number ' || g || ' with some words in it to be about the size people write', now() - (($3::int - g) || ' seconds')::interval
  from generate_series(1, $3::int) g`;

async function history() {
  const env = await setUp('history');
  const result: Record<string, unknown> = {};
  try {
    const [owner] = await insertUsers(env.pool as unknown as Queryable, 1, env.secret, 'hist');
    const roomId = await groupRoom(env.pool, owner!, [owner!], 10);
    const t0 = performance.now();
    await env.pool.query(FILL, [roomId, owner!.userId, opts.historyMessages]);
    await env.pool.query(`update stored_rooms set last_message_id = $2 where id = $1`, [roomId, opts.historyMessages]);
    await env.pool.query('analyze room_messages');
    result.fillSeconds = Math.round((performance.now() - t0) / 100) / 10;
    // A history this size was written over months: autovacuum and checkpoints have long settled it.
    // Settling it here keeps their catch-up work (a bulk load's aftermath) out of the page timings.
    await env.pool.query('vacuum (analyze) room_messages');
    await env.pool.query('checkpoint');
    env.server.startSampling();
    const api: number[] = [];
    for (let i = 0; i < opts.historyPages; i++) {
      const before = 51 + Math.floor(Math.random() * (opts.historyMessages - 50));
      const t = performance.now();
      const res = await fetch(`${env.server.url}/api/rooms/${roomId}/messages?before=${before}&limit=50`, {
        headers: { authorization: `Bearer ${owner!.token}` },
      });
      const page = (await res.json()) as { messages: unknown[] };
      api.push(performance.now() - t);
      if (page.messages.length !== 50) throw new Error(`a page of ${page.messages.length}`);
    }
    result.postgresApi = { latencyMs: summarize(api.slice(20)), server: env.server.stopSampling() };
    result.postgresStore = await storeTiming(env.pool, roomId);
    console.log(
      `rooms history (${opts.historyMessages} messages): page of 50 older through the API on PostgreSQL p50 ${(result.postgresApi as { latencyMs: { p50: number } }).latencyMs.p50} / p99 ${(result.postgresApi as { latencyMs: { p99: number } }).latencyMs.p99} ms (goal < 10)`,
    );
  } finally {
    await env.tearDown();
  }
  result.pglite = await pgliteHistory();
  return result;
}

/** The message store's page (the query the API runs), timed from this process on PostgreSQL. */
async function storeTiming(pool: pg.Pool, roomId: string) {
  const { drizzle } = await import('drizzle-orm/node-postgres');
  const { messageStore } = await import('../api/src/rooms/messageStore.ts');
  return { latencyMs: await timePages(messageStore(drizzle(pool) as never), roomId) };
}

/** `historyPages` pages of 50 older messages at random places; the first 20 warm up. */
async function timePages(
  store: { before(roomId: string, before: number, limit: number): Promise<{ messages: unknown[] }> },
  roomId: string,
) {
  const times: number[] = [];
  for (let i = 0; i < opts.historyPages; i++) {
    const before = 51 + Math.floor(Math.random() * (opts.historyMessages - 50));
    const t = performance.now();
    const page = await store.before(roomId, before, 50);
    times.push(performance.now() - t);
    if (page.messages.length !== 50) throw new Error(`a page of ${page.messages.length}`);
  }
  return summarize(times.slice(20));
}

/** The same history in PGlite (the embedded default), in this process, through the message store. */
async function pgliteHistory() {
  const { openDatabase } = await import('../api/src/db/client.ts');
  const { messageStore } = await import('../api/src/rooms/messageStore.ts');
  const { sql } = await import('drizzle-orm');
  const dir = await mkdtemp(path.join(os.tmpdir(), 'parley-bench-pglite-'));
  const database = await openDatabase({ dataDir: dir });
  try {
    const db = database.db;
    const rows = (await db.execute(sql`insert into users (username) values ('hist') returning id`)) as unknown as {
      rows: Array<{ id: string }>;
    };
    const userId = rows.rows[0]!.id;
    const room = (await db.execute(sql`insert into stored_rooms (kind, name) values ('group', 'History') returning id`)) as unknown as {
      rows: Array<{ id: string }>;
    };
    const roomId = room.rows[0]!.id;
    const t0 = performance.now();
    // PGlite in batches: one statement of a million rows would hold it all in its WebAssembly heap.
    for (let from = 1; from <= opts.historyMessages; from += 100_000) {
      const to = Math.min(opts.historyMessages, from + 99_999);
      await db.execute(sql`insert into room_messages (room_id, id, sender_id, text)
        select ${roomId}, g, ${userId}, 'message number ' || g || ' with some words in it to be about the size people write' from generate_series(${from}::int, ${to}::int) g`);
    }
    await db.execute(sql`analyze room_messages`);
    const fillSeconds = Math.round((performance.now() - t0) / 100) / 10;
    const r = {
      fillSeconds,
      storeLatencyMs: await timePages(messageStore(db), roomId),
      benchRssMb: Math.round(process.memoryUsage().rss / 1e5) / 10,
    };
    console.log(`rooms history on PGlite: page of 50 older at the store p50 ${r.storeLatencyMs.p50} / p99 ${r.storeLatencyMs.p99} ms`);
    return r;
  } finally {
    await database.close();
    await rm(dir, { recursive: true, force: true });
  }
}

const results: Record<string, unknown> = { bench: 'rooms', started: new Date().toISOString(), machine: machine(), options: opts };
for (const s of opts.scenarios) {
  if (s === 'big') results.big = await big();
  else if (s === 'many') results.many = await many();
  else if (s === 'history') results.history = await history();
}
await mkdir(path.join(repoRoot, 'bench/results'), { recursive: true });
await writeFile(path.join(repoRoot, 'bench/results', `${opts.out}.json`), JSON.stringify(results, null, 2) + '\n');
