/**
 * `npm run bench:pglite`: what the embedded database (PGlite, in its worker thread, as `npm start`
 * runs it) costs in memory and answers in time, under several settings, holding 10,000 accounts
 * and 1,000,000 stored messages.
 *
 * The data is made once (the server's own migrations, then accounts, group rooms and direct
 * conversations, and messages written in bulk by SQL inside PGlite), kept in a template folder, and
 * copied for each setting. Each setting runs in a process of its own, with the server's Node flags,
 * so that what one leaves in memory does not count for the next: it opens the copy, then runs the
 * server's common statements (a room's latest page, an account by id, a word searched in a room,
 * and message batches stored through the server's own `insertMany`), and reports the process's
 * resident memory (idle after opening, and at its peak), PGlite's WebAssembly heap, and each
 * statement's latency.
 *
 * Options: --accounts=10000  --messages=1000000  --rooms=2000  --direct=5000  --reads=2000
 *   --searches=300  --batches=300  --configs=8MB,16MB,32MB,128MB,16MB+work_mem=1MB,16MB+tierup
 *   (each: shared_buffers, then `+name=value` for other settings; `+tierup` without the server's
 *   --liftoff-only)  --reuse=true  --out=pglite
 */
import { execFileSync, spawn } from 'node:child_process';
import { cp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { option } from './lib/options.ts';
import { startNodeFlags } from '../scripts/start-flags.mjs';
import { machine } from './lib/storedRoomsLoad.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const opts = {
  accounts: Number(option('accounts', '10000')),
  messages: Number(option('messages', '1000000')),
  rooms: Number(option('rooms', '2000')),
  direct: Number(option('direct', '5000')),
  reads: Number(option('reads', '2000')),
  searches: Number(option('searches', '300')),
  batches: Number(option('batches', '300')),
  configs: option('configs', '8MB,16MB,32MB,128MB,16MB+work_mem=1MB,16MB+tierup').split(','),
  reuse: option('reuse', 'true') === 'true',
  out: option('out', 'pglite'),
};

const template = path.join(os.tmpdir(), `parley-bench-pglite-${opts.accounts}-${opts.messages}-${opts.rooms}-${opts.direct}`);

/** The child's part, in a process of its own: `node … bench/pglite.ts --child=<json>`. */
const child = option('child', '');

type ChildArgs = { dataDir: string; startParams: string[]; reads: number; searches: number; batches: number };

const rssMb = () => Math.round((process.memoryUsage().rss / 1024 / 1024) * 10) / 10;
async function peakRssMb(): Promise<number> {
  const status = await readFile('/proc/self/status', 'utf8').catch(() => '');
  const hwm = /VmHWM:\s+(\d+) kB/.exec(status);
  return hwm ? Math.round((Number(hwm[1]) / 1024) * 10) / 10 : NaN;
}

function summary(ms: number[]) {
  const s = [...ms].sort((a, b) => a - b);
  const at = (q: number) => Math.round(s[Math.min(s.length - 1, Math.floor(q * s.length))]! * 100) / 100;
  return { n: s.length, p50: at(0.5), p90: at(0.9), p99: at(0.99), max: at(1) };
}

async function runChild(args: ChildArgs) {
  const { PgliteThread } = await import('../api/src/db/pgliteThread.ts');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { messageStore } = await import('../api/src/rooms/messageStore.ts');
  const schema = await import('../api/src/db/schema.ts');
  // The process without the database: Node, tsx and the modules above.
  const beforeOpenRssMb = rssMb();
  const startedAt = performance.now();
  const client = new PgliteThread(args.dataDir, args.startParams);
  await client.waitReady;
  const openMs = Math.round(performance.now() - startedAt);
  const q = async <T>(text: string, params?: unknown[]) => (await client.query(text, params)).rows as T[];
  const rooms = (await q<{ id: string; kind: string }>(`select id, kind from stored_rooms order by id`)).map((r) => r.id);
  const users = (await q<{ id: string }>(`select id from users order by id`)).map((r) => r.id);
  const idle = { rssMb: rssMb(), ...(await client.memory()) };
  let seed = 42;
  const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  const pick = <T>(xs: T[]) => xs[Math.floor(random() * xs.length)]!;
  const timed = async (n: number, one: () => Promise<unknown>) => {
    const ms: number[] = [];
    for (let i = 0; i < n; i++) {
      const t = performance.now();
      await one();
      ms.push(performance.now() - t);
    }
    return summary(ms);
  };
  const history = await timed(args.reads, () =>
    q(`select id, sender_id, text, created_at from room_messages where room_id = $1 order by id desc limit 50`, [pick(rooms)]),
  );
  const account = await timed(args.reads, () => q(`select * from users where id = $1`, [pick(users)]));
  const words = ['hello', 'thanks', 'music', 'weekend', 'coffee', 'travel', 'game', 'book'];
  const search = await timed(args.searches, () =>
    q(`select id, text from room_messages where room_id = $1 and search @@ plainto_tsquery('simple', $2) order by id desc limit 20`, [
      pick(rooms),
      pick(words),
    ]),
  );
  const db = drizzle({ client: client as never, schema });
  const store = messageStore(db as never);
  let k = 0;
  const batch = await timed(args.batches, () =>
    store.insertMany(
      Array.from({ length: 20 }, () => ({
        roomId: pick(rooms),
        senderId: pick(users),
        senderName: 'bench',
        text: `a new message about ${pick(words)} and ${pick(words)}`,
        clientId: `bench-${process.pid}-${k++}`,
        mentions: [],
      })),
    ),
  );
  const after = { rssMb: rssMb(), ...(await client.memory()) };
  const result = {
    openMs,
    beforeOpenRssMb,
    idle,
    after,
    peakRssMb: await peakRssMb(),
    latencyMs: { history, account, search, batchOf20: batch },
  };
  await client.close();
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

/** The template: migrated by the server's own code, filled in bulk inside PGlite. */
async function makeTemplate() {
  if (opts.reuse && existsSync(path.join(template, 'pglite', 'PG_VERSION')) && existsSync(path.join(template, 'done'))) return;
  await rm(template, { recursive: true, force: true });
  await mkdir(template, { recursive: true });
  const { openDatabase } = await import('../api/src/db/client.ts');
  const t0 = performance.now();
  const database = await openDatabase({ dataDir: template });
  const client = (database.db as unknown as { $client: { query(text: string, params?: unknown[]): Promise<{ rows: unknown[] }> } }).$client;
  const q = (text: string, params?: unknown[]) => client.query(text, params);
  await q(
    `insert into users (username, age, gender, is_verified)
     select 'acct' || g, 18 + g % 50, (array['female','male','other'])[1 + g % 3], true from generate_series(1, $1::int) g`,
    [opts.accounts],
  );
  await q(`create temporary table u as select row_number() over (order by id) as n, id from users`);
  await q(
    `insert into stored_rooms (kind, name, category, owner_id, language, capacity)
     select 'group', 'Room ' || g, 'Chat', (select id from u where n = 1 + g % $2::int), (array['en','es','fr','de','pt'])[1 + g % 5], 1000
     from generate_series(1, $1::int) g`,
    [opts.rooms, opts.accounts],
  );
  // Each group room: 20 members; each direct conversation: two accounts that are friends.
  await q(
    `insert into room_members (room_id, user_id)
     select r.id, u.id from (select id, row_number() over (order by id) as n from stored_rooms) r
     join u on u.n in (select 1 + ((r.n * 37 + j * 101) % $1::int) from generate_series(0, 19) j)
     on conflict do nothing`,
    [opts.accounts],
  );
  await q(
    `with p as (select g, 1 + (g * 7) % $2::int as a, 1 + (g * 7 + 1 + g % 97) % $2::int as b from generate_series(1, $1::int) g),
     ids as (select distinct least(ua.id, ub.id) as lo, greatest(ua.id, ub.id) as hi from p join u ua on ua.n = p.a join u ub on ub.n = p.b where ua.id <> ub.id),
     f as (insert into friendships (user_low, user_high) select lo, hi from ids on conflict do nothing returning 1)
     insert into stored_rooms (kind, direct_key) select 'direct', lo || ':' || hi from ids`,
    [opts.direct, opts.accounts],
  );
  await q(
    `insert into room_members (room_id, user_id)
     select r.id, x.id::uuid from stored_rooms r, unnest(string_to_array(r.direct_key, ':')) as x(id) where r.kind = 'direct'`,
  );
  // Messages in chunks, each room's ids in order, senders among its members, words from a small vocabulary.
  await q(`create temporary table rr as select id, row_number() over (order by id) as n from stored_rooms`);
  await q(`create temporary table m as select room_id, array_agg(user_id) as who from room_members group by room_id`);
  const roomCount = Number(((await q(`select count(*)::int as n from rr`)).rows[0] as { n: number }).n);
  const chunk = 100_000;
  for (let done = 0; done < opts.messages; done += chunk) {
    const n = Math.min(chunk, opts.messages - done);
    await q(
      `insert into room_messages (room_id, id, sender_id, text, created_at, client_id)
       select rr.id, $1::bigint + g, m.who[1 + g % array_length(m.who, 1)],
         (array['hello','thanks','music','weekend','coffee','travel','game','book','today','really'])[1 + (g * 7) % 10] || ' ' ||
         (array['you','we','they','nice','later','maybe','sure','great','why','how'])[1 + (g * 13) % 10] || ' message ' || g,
         now() - interval '1 second' * ($2::int - g), 'seed-' || ($1::bigint + g)
       from generate_series(1, $2::int) g
       join rr on rr.n = 1 + (g % $3::int)
       join m on m.room_id = rr.id`,
      [done, n, roomCount],
    );
    process.stdout.write(`\r  messages ${done + n}/${opts.messages}`);
  }
  process.stdout.write('\n');
  await q(
    `update stored_rooms r set last_message_id = x.last from (select room_id, max(id) as last from room_messages group by room_id) x where x.room_id = r.id`,
  );
  await q(`vacuum analyze`);
  const { rows } = await q(`select pg_database_size(current_database())::bigint as bytes`);
  await database.close();
  await writeFile(path.join(template, 'done'), '');
  return { seconds: Math.round((performance.now() - t0) / 1000), databaseBytes: Number((rows[0] as { bytes: string }).bytes) };
}

async function runConfig(config: string) {
  const [buffers, ...rest] = config.split('+');
  // `tierup`: V8 also optimises PGlite's WebAssembly, as it would without scripts/start.mjs's --liftoff-only.
  const tierUp = rest.includes('tierup');
  const others = rest.filter((o) => o !== 'tierup');
  const { PGlite } = await import('@electric-sql/pglite');
  const startParams = [...PGlite.defaultStartParams, '-c', `shared_buffers=${buffers}`, ...others.flatMap((o) => ['-c', o])];
  const dir = path.join(os.tmpdir(), `parley-bench-pglite-run-${process.pid}`);
  await rm(dir, { recursive: true, force: true });
  await cp(path.join(template, 'pglite'), dir, { recursive: true });
  const args: ChildArgs = { dataDir: dir, startParams, reads: opts.reads, searches: opts.searches, batches: opts.batches };
  try {
    const out = await new Promise<string>((resolve, reject) => {
      const p = spawn(
        process.execPath,
        [
          ...startNodeFlags(repoRoot),
          ...(tierUp ? [] : ['--liftoff-only']),
          '--import',
          'tsx',
          fileURLToPath(import.meta.url),
          `--child=${JSON.stringify(args)}`,
        ],
        { cwd: repoRoot, stdio: ['ignore', 'pipe', 'inherit'] },
      );
      let text = '';
      p.stdout.on('data', (d: Buffer) => (text += d.toString()));
      p.on('exit', (code) => (code === 0 ? resolve(text) : reject(new Error(`the ${config} run ended with ${code}`))));
    });
    return { config, startParams: startParams.slice(PGlite.defaultStartParams.length), ...JSON.parse(out.trim().split('\n').at(-1)!) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function main() {
  const started = new Date().toISOString();
  console.log(`template ${template}`);
  const made = await makeTemplate();
  const sizeMb = Number(
    execFileSync('du', ['-sm', path.join(template, 'pglite')])
      .toString()
      .split('\t')[0],
  );
  const runs = [];
  for (const config of opts.configs) {
    const r = await runConfig(config);
    runs.push(r);
    const l = r.latencyMs;
    console.log(
      `${config}: open ${r.openMs} ms; RSS before opening ${r.beforeOpenRssMb} MB, idle ${r.idle.rssMb} MB, after ${r.after.rssMb} MB, peak ${r.peakRssMb} MB; ` +
        `WebAssembly ${Math.round(r.after.wasmBytes / 1048576)} MB; p50/p99 ms history ${l.history.p50}/${l.history.p99}, ` +
        `account ${l.account.p50}/${l.account.p99}, search ${l.search.p50}/${l.search.p99}, batch of 20 ${l.batchOf20.p50}/${l.batchOf20.p99}`,
    );
  }
  const result = { bench: 'pglite', started, machine: machine(), options: opts, template: { ...made, dataDirMb: sizeMb }, runs };
  await mkdir(path.join(repoRoot, 'bench/results'), { recursive: true });
  await writeFile(path.join(repoRoot, `bench/results/${opts.out}.json`), `${JSON.stringify(result, null, 2)}\n`);
}

if (child) await runChild(JSON.parse(child) as ChildArgs);
else await main();
