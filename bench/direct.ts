/**
 * `npm run bench:direct` (the direct-message part of bench:people): 1,000 pairs of friends, each
 * pair one message a second (the two taking turns at random phases), both with their conversation
 * open and in front (as the PWA tells the server), on the real server over PostgreSQL. Delivery = post → received by the friend; every
 * stored message must reach both sides. Writes bench/results/direct.json.
 *
 * Options: --pairs=1000  --seconds=20  --database-url=postgres://postgres@127.0.0.1:5432/postgres  --out=direct
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { option } from './lib/options.ts';
import { startBenchServer } from './lib/server.ts';
import { benchSecret, freshDatabase, insertUsers, machine, traffic } from './lib/storedRoomsLoad.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const opts = {
  pairs: Number(option('pairs', '1000')),
  seconds: Number(option('seconds', '20')),
  databaseUrl: option('database-url', process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'),
  out: option('out', 'direct'),
};

const db = await freshDatabase(opts.databaseUrl, `parley_bench_direct_${process.pid}`);
const secret = benchSecret();
const server = await startBenchServer(repoRoot, { DATABASE_URL: db.url, JWT_SECRET: secret });
const pool = new pg.Pool({ connectionString: db.url, max: 4 });
let result: Awaited<ReturnType<typeof traffic>>;
try {
  const users = await insertUsers(pool, opts.pairs * 2, secret, 'dm');
  const pairs = Array.from({ length: opts.pairs }, (_, i) => [users[2 * i]!, users[2 * i + 1]!] as const);
  // Friends, and their direct room as opening it makes it (one room per pair, keyed by the two ids).
  await pool.query(
    `insert into friendships (user_low, user_high) select least(a, b), greatest(a, b) from unnest($1::uuid[], $2::uuid[]) as p(a, b)`,
    [pairs.map((p) => p[0].userId), pairs.map((p) => p[1].userId)],
  );
  const { rows } = await pool.query<{ id: string; direct_key: string }>(
    `insert into stored_rooms (kind, direct_key) select 'direct', least(a, b) || ':' || greatest(a, b) from unnest($1::uuid[], $2::uuid[]) as p(a, b) returning id, direct_key`,
    [pairs.map((p) => p[0].userId), pairs.map((p) => p[1].userId)],
  );
  const roomOf = new Map(rows.map((r) => [r.direct_key, r.id]));
  const rooms = pairs.map(([a, b]) => {
    const roomId = roomOf.get(a.userId < b.userId ? `${a.userId}:${b.userId}` : `${b.userId}:${a.userId}`)!;
    return { roomId, members: [a, b], posters: [a, b] };
  });
  await pool.query(`insert into room_members (room_id, user_id) select r, u from unnest($1::uuid[], $2::uuid[]) as m(r, u)`, [
    rooms.flatMap((r) => [r.roomId, r.roomId]),
    rooms.flatMap((r) => r.members.map((m) => m.userId)),
  ]);
  // Each of the two every 2 s: the pair, one message a second.
  const friendOf = new Map(pairs.flatMap(([a, b]) => [[a.userId, b], [b.userId, a]] as const));
  result = await traffic(server, pool, rooms, 2000, opts.seconds, (u) => `/messages/${friendOf.get(u.userId)!.username}`);
  console.log(
    `direct: ${opts.pairs} pairs, ${result.posted} posted, ${result.storedInDb} stored, ${result.lost} lost of ${result.expectedDeliveries}, delivery p50 ${result.latencyMs.p50} / p99 ${result.latencyMs.p99} ms (goal < 20), server peak RSS ${result.server.peakRssMb} MB, CPU avg ${result.server.avgCpuPct} %`,
  );
} finally {
  await pool.end();
  await server.stop();
  await db.drop();
}
await mkdir(path.join(repoRoot, 'bench/results'), { recursive: true });
await writeFile(
  path.join(repoRoot, 'bench/results', `${opts.out}.json`),
  JSON.stringify(
    { bench: 'direct', started: new Date().toISOString(), machine: machine(), options: opts, goalP99Ms: 20, ...result },
    null,
    2,
  ) + '\n',
);
