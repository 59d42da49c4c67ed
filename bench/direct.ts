/**
 * `npm run bench:direct` (the direct-message part of bench:people): 1,000 pairs of friends, each
 * pair one message a second (the two taking turns at random phases), both with their conversation
 * open and in front (as the PWA tells the server), on the real server over PostgreSQL, or over
 * PGlite (the embedded default) with --db=pglite. Delivery = post → received by the friend; every
 * stored message must reach both sides. The same sockets then send the same messages through the
 * server's plain socket.io references (no policy): fan-out only, and stored the plain way (an
 * awaited insert per message, then the fan-out); all three are reported, and the ratios.
 * Writes bench/results/direct.json (direct-pglite.json with --db=pglite).
 *
 * Options: --pairs=1000  --seconds=20  --db=postgres|pglite
 *   --database-url=postgres://postgres@127.0.0.1:5432/postgres  --out=direct
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { option } from './lib/options.ts';
import { startBenchServer } from './lib/server.ts';
import {
  benchSecret,
  countIn,
  freshDatabase,
  insertUsers,
  machine,
  traffic,
  type LoadUser,
  type Queryable,
} from './lib/storedRoomsLoad.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dbKind = option('db', 'postgres');
if (dbKind !== 'postgres' && dbKind !== 'pglite') throw new Error('--db is postgres or pglite');
const opts = {
  pairs: Number(option('pairs', '1000')),
  seconds: Number(option('seconds', '20')),
  db: dbKind,
  databaseUrl: option('database-url', process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'),
  out: option('out', dbKind === 'pglite' ? 'direct-pglite' : 'direct'),
};

/** Friends, and their direct room as opening it makes it (one room per pair, keyed by the two ids). */
async function seed(db: Queryable, secret: string) {
  const users = await insertUsers(db, opts.pairs * 2, secret, 'dm');
  const pairs = Array.from({ length: opts.pairs }, (_, i) => [users[2 * i]!, users[2 * i + 1]!] as const);
  const low = pairs.map(([a, b]) => (a.userId < b.userId ? a.userId : b.userId));
  const high = pairs.map(([a, b]) => (a.userId < b.userId ? b.userId : a.userId));
  await db.query(`insert into friendships (user_low, user_high) select * from unnest($1::uuid[], $2::uuid[])`, [low, high]);
  const { rows } = await db.query<{ id: string; direct_key: string }>(
    `insert into stored_rooms (kind, direct_key) select 'direct', a || ':' || b from unnest($1::text[], $2::text[]) as p(a, b) returning id, direct_key`,
    [low, high],
  );
  const roomOf = new Map(rows.map((r) => [r.direct_key, r.id]));
  const rooms = pairs.map(([a, b]) => {
    const roomId = roomOf.get(a.userId < b.userId ? `${a.userId}:${b.userId}` : `${b.userId}:${a.userId}`)!;
    return { roomId, members: [a, b] as LoadUser[], posters: [a, b] as LoadUser[] };
  });
  await db.query(`insert into room_members (room_id, user_id) select * from unnest($1::uuid[], $2::uuid[])`, [
    rooms.flatMap((r) => [r.roomId, r.roomId]),
    rooms.flatMap((r) => r.members.map((m) => m.userId)),
  ]);
  const friendOf = new Map(
    pairs.flatMap(
      ([a, b]) =>
        [
          [a.userId, b],
          [b.userId, a],
        ] as const,
    ),
  );
  return { rooms, pageOf: (u: LoadUser) => `/messages/${friendOf.get(u.userId)!.username}` };
}

const secret = benchSecret();
// Each of the two every 2 s: the pair, one message a second.
const EVERY_MS = 2000;
let result: Awaited<ReturnType<typeof traffic>>;
if (opts.db === 'postgres') {
  const db = await freshDatabase(opts.databaseUrl, `parley_bench_direct_${process.pid}`);
  const server = await startBenchServer(repoRoot, { DATABASE_URL: db.url, JWT_SECRET: secret });
  const pool = new pg.Pool({ connectionString: db.url, max: 4 });
  try {
    const { rooms, pageOf } = await seed(pool as unknown as Queryable, secret);
    result = await traffic(server, rooms, EVERY_MS, opts.seconds, { pageOf, countStored: countIn(pool) });
  } finally {
    await pool.end();
    await server.stop();
    await db.drop();
  }
} else {
  // The server's embedded database, migrated and seeded here first, then handed to the server.
  const { openDatabase } = await import('../api/src/db/client.ts');
  const template = await mkdtemp(path.join(os.tmpdir(), 'parley-bench-direct-'));
  await (await openDatabase({ dataDir: template })).close();
  const lite = new PGlite(path.join(template, 'pglite'));
  const seeded = await seed(lite as unknown as Queryable, secret).finally(() => lite.close());
  const server = await startBenchServer(repoRoot, { JWT_SECRET: secret }, template);
  await rm(template, { recursive: true, force: true });
  try {
    result = await traffic(server, seeded.rooms, EVERY_MS, opts.seconds, { pageOf: seeded.pageOf });
  } finally {
    await server.stop(true);
  }
  const after = new PGlite(path.join(server.dataDir, 'pglite'));
  try {
    const { rows } = await after.query<{ n: number }>(`select count(*)::int as n from room_messages`);
    result.storedInDb = rows[0]!.n;
  } finally {
    await after.close();
    await rm(server.dataDir, { recursive: true, force: true });
  }
}
console.log(
  `direct (${opts.db}): ${opts.pairs} pairs, ${result.posted} posted, ${result.storedInDb} stored, ${result.lost} lost of ${result.expectedDeliveries}, delivery p50 ${result.latencyMs.p50} / p99 ${result.latencyMs.p99} ms (goal < 20), server peak RSS ${result.server.peakRssMb} MB, CPU avg ${result.server.avgCpuPct} %; reference p50 ${result.reference.latencyMs.p50} / p99 ${result.reference.latencyMs.p99} ms (${result.reference.lost} lost), ratio p99 ${result.ratioToReference.p99}; stored plainly p50 ${result.storedReference.latencyMs.p50} / p99 ${result.storedReference.latencyMs.p99} ms (${result.storedReference.lost} lost), ratio p99 ${result.ratioToStoredReference.p99}`,
);
await mkdir(path.join(repoRoot, 'bench/results'), { recursive: true });
await writeFile(
  path.join(repoRoot, 'bench/results', `${opts.out}.json`),
  JSON.stringify(
    { bench: 'direct', started: new Date().toISOString(), machine: machine(), options: opts, goalP99Ms: 20, ...result },
    null,
    2,
  ) + '\n',
);
