/**
 * `npm run bench:pictures`: a picture sent in a conversation, until the other side has it, on the
 * real server (bundled, as `npm start` runs it) over PostgreSQL, with lean socket.io clients and
 * fetch() in this process. Goal: p50 < 1 s on loopback.
 *
 * What the PWA does (pwa/src/realtime/storedRoom.ts, store/api.ts, PictureAttachment.tsx): the
 * sender uploads the file as it is (POST /api/rooms/:roomId/attachments?kind=image, the raw JPEG
 * as the body), then posts `room:post` naming the upload; each member with the room open receives
 * `room:message` and fetches the thumbnail it shows (GET the message's thumbUrl, signed in).
 * Latency = start of the upload → the thumbnail's last byte at a receiver, per receiver.
 *
 * The photos are made at start (bench/lib/photos.ts): a detailed 12-megapixel JPEG (about 6.5 MB)
 * and a phone photo of about 3.4 MB held upright (EXIF orientation 6), both with a camera's EXIF
 * and GPS; the pictures sent alternate between them.
 *
 * Scenarios: `direct` (pairs of friends, one receiver) and `group` (rooms of `--group-size`
 * members, all receiving), each with 1 sender at a time and with `--concurrency` senders at once
 * (a wave: each in another conversation). Every conversation holds `--history` messages already,
 * as a used one does. Senders stay within the server's limits (12 uploads a person and 40 a room a
 * minute): waves wait for someone who may send.
 *
 * The reference in the same run (bench/lib/referencePictureServer.mjs): the same job with the
 * plain libraries (an HTTP upload, sharp with Parley's settings, a socket.io broadcast, a GET of
 * the thumbnail from memory); each wave is sent to Parley, then the same to the reference.
 *
 * Run it pinned: `BENCH_SERVER_CPUS=0 taskset -c 1 npm run bench:pictures`.
 *
 * Options: --pictures=40 (per scenario and concurrency)  --concurrency=10  --pairs=40  --group-rooms=10
 *   --group-size=8  --history=10000  --scenarios=direct,group
 *   --database-url=postgres://postgres@127.0.0.1:5432/postgres  --out=pictures
 */
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { roomEvents as wire, type PostAnswer, type RoomMessage } from '@parley/contract/rooms';
import { notificationEvents } from '@parley/contract/notifications';
import { REALTIME_PROTOCOL } from '@parley/contract/protocol';
import { option } from './lib/options.ts';
import { benchPhotos, type Photo } from './lib/photos.ts';
import { startBenchServer, startReferenceChatServer } from './lib/server.ts';
import { summarize } from './lib/stats.ts';
import { LeanSocket } from './lib/leanSocket.ts';
import { PICTURE_WEBP } from '../api/src/rooms/pictures.ts';
import { ask, benchSecret, connectAll, freshDatabase, insertUsers, machine, type LoadUser, type Queryable } from './lib/storedRoomsLoad.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const num = (name: string, fallback: number) => Number(option(name, String(fallback)));
const opts = {
  pictures: num('pictures', 40),
  concurrency: num('concurrency', 10),
  pairs: num('pairs', 40),
  groupRooms: num('group-rooms', 10),
  groupSize: num('group-size', 8),
  history: num('history', 10_000),
  scenarios: option('scenarios', 'direct,group').split(','),
  databaseUrl: option('database-url', process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'),
  out: option('out', 'pictures'),
};
/** Below the server's limits (ATTACHMENTS_PER_USER_MINUTE 12, ATTACHMENTS_PER_ROOM_MINUTE 40), with a margin. */
const PER_USER_MINUTE = 10;
const PER_ROOM_MINUTE = 35;
const DELIVERY_TIMEOUT_MS = 30_000;

/** The photo's bytes as fetch() takes a body, without copying them. */
const bodyOf = (p: Photo) => new Uint8Array(p.bytes.buffer as ArrayBuffer, p.bytes.byteOffset, p.bytes.byteLength);

type Conversation = { kind: 'direct' | 'group'; roomId: string; members: LoadUser[] };

/** Pairs of friends with their direct room, and group rooms of the same people; each with a history. */
async function seed(db: pg.Pool, users: LoadUser[]): Promise<Conversation[]> {
  const q = db as unknown as Queryable;
  const pairs = Array.from({ length: opts.pairs }, (_, i) => [users[2 * i]!, users[2 * i + 1]!] as const);
  const key = ([a, b]: readonly [LoadUser, LoadUser]) => (a.userId < b.userId ? [a.userId, b.userId] : [b.userId, a.userId]);
  await q.query(`insert into friendships (user_low, user_high) select * from unnest($1::uuid[], $2::uuid[])`, [
    pairs.map((p) => key(p)[0]),
    pairs.map((p) => key(p)[1]),
  ]);
  const conversations: Conversation[] = [];
  for (const p of pairs) {
    const { rows } = await q.query<{ id: string }>(`insert into stored_rooms (kind, direct_key) values ('direct', $1) returning id`, [
      key(p).join(':'),
    ]);
    conversations.push({ kind: 'direct', roomId: rows[0]!.id, members: [...p] });
  }
  for (let g = 0; g < opts.groupRooms; g++) {
    const members = Array.from({ length: opts.groupSize }, (_, k) => users[(g * opts.groupSize + k) % users.length]!);
    const { rows } = await q.query<{ id: string }>(
      `insert into stored_rooms (kind, name, category, owner_id, language) values ('group', $1, 'Chat', $2, 'en') returning id`,
      [`Pictures ${g}`, members[0]!.userId],
    );
    conversations.push({ kind: 'group', roomId: rows[0]!.id, members });
  }
  await q.query(
    `insert into room_members (room_id, user_id, role) select r, u, case when o then 'owner' else 'member' end
     from unnest($1::uuid[], $2::uuid[], $3::boolean[]) as x(r, u, o)`,
    [
      conversations.flatMap((c) => c.members.map(() => c.roomId)),
      conversations.flatMap((c) => c.members.map((m) => m.userId)),
      conversations.flatMap((c) => c.members.map((_, i) => c.kind === 'group' && i === 0)),
    ],
  );
  // Each conversation's past: words, and a picture now and then (their files are not needed here).
  await q.query(
    `insert into room_messages (room_id, id, sender_id, text, created_at, attachment_id, client_id)
     select c.room_id, g, m.ids[1 + g % cardinality(m.ids)], 'an earlier message ' || g,
       now() - (($2::int - g) || ' minutes')::interval, case when g % 50 = 0 then gen_random_uuid() end, 'h' || g
     from unnest($1::uuid[]) as c(room_id)
       cross join lateral (select array_agg(user_id) as ids from room_members where room_id = c.room_id) m
       cross join generate_series(1, $2::int) g`,
    [conversations.map((c) => c.roomId), opts.history],
  );
  await q.query(`update stored_rooms set last_message_id = $2 where id = any($1::uuid[])`, [
    conversations.map((c) => c.roomId),
    opts.history,
  ]);
  await q.query('vacuum (analyze)');
  return conversations;
}

/** Who may send where now, within the server's limits per person and per room. */
function limits() {
  const sent = new Map<string, number[]>();
  const recent = (k: string) => {
    const now = performance.now();
    const ts = (sent.get(k) ?? []).filter((t) => now - t < 61_000);
    sent.set(k, ts);
    return ts.length;
  };
  let turn = 0;
  return {
    /** `n` conversations of `kind`, each with a sender who may send there now; fewer when the limits hold them back. */
    pick(conversations: Conversation[], n: number) {
      const slots: Array<{ conversation: Conversation; sender: LoadUser }> = [];
      const busy = new Set<string>();
      for (let i = 0; i < conversations.length && slots.length < n; i++) {
        const c = conversations[(turn + i) % conversations.length]!;
        if (recent(`room:${c.roomId}`) >= PER_ROOM_MINUTE) continue;
        const sender = c.members
          .filter((m) => !busy.has(m.userId) && recent(`user:${m.userId}`) < PER_USER_MINUTE)
          .sort((a, b) => recent(`user:${a.userId}`) - recent(`user:${b.userId}`))[0];
        if (!sender) continue;
        busy.add(sender.userId);
        slots.push({ conversation: c, sender });
      }
      turn = (turn + slots.length) % conversations.length;
      return slots;
    },
    sent(roomId: string, userId: string) {
      const now = performance.now();
      for (const k of [`room:${roomId}`, `user:${userId}`]) sent.set(k, [...(sent.get(k) ?? []), now]);
    },
  };
}

type Target = {
  url: string;
  socketOf: Map<string, LeanSocket>;
  /** Uploads the photo; answers the attachment's id. */
  upload(sender: LoadUser, roomId: string, photo: Photo): Promise<string>;
  post(sender: LoadUser, roomId: string, attachmentId: string, clientId: string): Promise<void>;
};

/** One picture's timings at each receiver, from the start of its upload. */
type Sample = { photo: string; uploadMs: number; postMs: number; messageMs: number; thumbMs: number; thumbBytes: number };

/**
 * Receivers: on each message carrying a picture that the bench is waiting for, fetch the
 * thumbnail as the app does (signed in) and report when its last byte arrived.
 */
function receivers(
  target: Target,
  users: LoadUser[],
  messageEvent: string,
  attachmentOf: (m: unknown) => { id: string; thumbUrl: string } | undefined,
) {
  const waiting = new Map<
    string,
    { t0: number; left: Set<string>; onDone(userId: string, messageMs: number, thumbMs: number, bytes: number): void }
  >();
  for (const u of users)
    target.socketOf.get(u.userId)!.on(messageEvent, (m: unknown) => {
      const a = attachmentOf(m);
      const w = a && waiting.get(a.id);
      if (!w || !w.left.has(u.userId)) return;
      const messageMs = performance.now() - w.t0;
      void fetch(`${target.url}${a.thumbUrl}`, { headers: { authorization: `Bearer ${u.token}` } })
        .then(async (res) => {
          if (!res.ok) throw new Error(`thumbnail ${res.status}`);
          const bytes = (await res.arrayBuffer()).byteLength;
          w.onDone(u.userId, messageMs, performance.now() - w.t0, bytes);
        })
        .catch((err: unknown) => console.error(`bench:pictures: ${String(err)}`));
    });
  return waiting;
}

async function sendAndWait(
  target: Target,
  waiting: ReturnType<typeof receivers>,
  conversation: Conversation,
  sender: LoadUser,
  photo: Photo,
  clientId: string,
): Promise<{ samples: Sample[]; lost: number }> {
  const t0 = performance.now();
  const id = await target.upload(sender, conversation.roomId, photo);
  const uploadMs = performance.now() - t0;
  const others = conversation.members.filter((m) => m.userId !== sender.userId);
  const samples: Sample[] = [];
  let postMs = NaN;
  const done = new Promise<void>((resolve) => {
    const left = new Set(others.map((m) => m.userId));
    waiting.set(id, {
      t0,
      left,
      onDone(userId, messageMs, thumbMs, thumbBytes) {
        left.delete(userId);
        samples.push({ photo: photo.name, uploadMs, postMs, messageMs, thumbMs, thumbBytes });
        if (left.size === 0) resolve();
      },
    });
    setTimeout(resolve, DELIVERY_TIMEOUT_MS);
  });
  await target.post(sender, conversation.roomId, id, clientId);
  postMs = performance.now() - t0;
  for (const s of samples) s.postMs = postMs;
  await done;
  waiting.delete(id);
  return { samples, lost: others.length - samples.length };
}

const summaryOf = (samples: Sample[], lost: number) => ({
  deliveries: samples.length,
  lost,
  toThumbnailMs: summarize(samples.map((s) => s.thumbMs)),
  toMessageMs: summarize(samples.map((s) => s.messageMs)),
  uploadMs: summarize(samples.map((s) => s.uploadMs)),
  postAckedMs: summarize(samples.map((s) => s.postMs)),
  byPhoto: Object.fromEntries(
    [...new Set(samples.map((s) => s.photo))].map((p) => [p, summarize(samples.filter((s) => s.photo === p).map((s) => s.thumbMs))]),
  ),
  thumbnailBytes: samples[0]?.thumbBytes ?? null,
});

async function main() {
  const t0 = performance.now();
  const photos = await benchPhotos();
  console.log(
    `bench:pictures: photos ${photos.map((p) => `${p.name} ${(p.bytes.length / 1e6).toFixed(2)} MB`).join(', ')} made in ${Math.round(performance.now() - t0)} ms`,
  );
  const results: Record<string, unknown> = {
    bench: 'pictures',
    started: new Date().toISOString(),
    machine: machine(),
    options: opts,
    goalP50Ms: 1000,
    photos: photos.map((p) => ({ name: p.name, bytes: p.bytes.length, width: p.width, height: p.height })),
  };
  const db = await freshDatabase(opts.databaseUrl, `parley_bench_pictures_${process.pid}`);
  const secret = benchSecret();
  const server = await startBenchServer(repoRoot, { DATABASE_URL: db.url, JWT_SECRET: secret });
  const reference = await startReferenceChatServer(
    repoRoot,
    { JWT_SECRET: secret, PICTURE_WEBP: JSON.stringify(PICTURE_WEBP) },
    'bench/lib/referencePictureServer.mjs',
  );
  const pool = new pg.Pool({ connectionString: db.url, max: 2 });
  const sockets: LeanSocket[] = [];
  try {
    const users = await insertUsers(pool as unknown as Queryable, opts.pairs * 2, secret, 'pic');
    const conversations = await seed(pool, users);
    const parleySockets = await connectAll(server.url, users);
    const refSockets = await Promise.all(
      users.map(
        (u) =>
          new Promise<LeanSocket>((resolve, reject) => {
            const s = new LeanSocket(reference.url, { query: {}, auth: { token: u.token, protocol: REALTIME_PROTOCOL } });
            s.once('connect', () => resolve(s));
            s.once('connect_error', reject);
          }),
      ),
    );
    sockets.push(...parleySockets, ...refSockets);
    const auth = (u: LoadUser) => ({ authorization: `Bearer ${u.token}` });
    const parley: Target = {
      url: server.url,
      socketOf: new Map(users.map((u, i) => [u.userId, parleySockets[i]!])),
      async upload(sender, roomId, photo) {
        const res = await fetch(`${server.url}/api/rooms/${roomId}/attachments?kind=image`, {
          method: 'POST',
          headers: { ...auth(sender), 'content-type': 'image/jpeg' },
          body: bodyOf(photo),
        });
        const body = (await res.json()) as { id: string; message?: string };
        if (res.status !== 201) throw new Error(`upload ${res.status}: ${body.message ?? ''}`);
        return body.id;
      },
      async post(sender, roomId, attachment, clientId) {
        const a = await ask<PostAnswer>(parley.socketOf.get(sender.userId)!, wire.post, { roomId, clientId, text: '', attachment });
        if (!a.ok) throw new Error(`post refused: ${a.message}`);
      },
    };
    const ref: Target = {
      url: reference.url,
      socketOf: new Map(users.map((u, i) => [u.userId, refSockets[i]!])),
      async upload(sender, _roomId, photo) {
        const res = await fetch(`${reference.url}/upload`, {
          method: 'POST',
          headers: { ...auth(sender), 'content-type': 'image/jpeg' },
          body: bodyOf(photo),
        });
        if (res.status !== 201) throw new Error(`reference upload ${res.status}`);
        return ((await res.json()) as { id: string }).id;
      },
      async post(sender, roomId, attachment, clientId) {
        await ask(ref.socketOf.get(sender.userId)!, 'ref:post', { room: roomId, attachment, clientId });
      },
    };
    // Everyone has their conversations open, as the PWA joins a room it shows.
    for (const c of conversations)
      for (const m of c.members) {
        const a = await ask<{ ok: boolean }>(parley.socketOf.get(m.userId)!, wire.join, { roomId: c.roomId });
        if (!a.ok) throw new Error('join refused');
        await ask(ref.socketOf.get(m.userId)!, 'ref:join', { room: c.roomId });
      }
    for (const c of conversations.filter((x) => x.kind === 'direct'))
      for (const [me, friend] of [c.members, [...c.members].reverse()])
        parley.socketOf.get(me!.userId)!.emit(notificationEvents.focus, { path: `/messages/${friend!.username}`, visible: true });

    const parleyWaiting = receivers(parley, users, wire.message, (m) => {
      const a = (m as RoomMessage).attachment;
      return a?.thumbUrl ? { id: a.id, thumbUrl: a.thumbUrl } : undefined;
    });
    const refWaiting = receivers(ref, users, 'ref:message', (m) => (m as { attachment?: { id: string; thumbUrl: string } }).attachment);
    const rate = limits();
    let sentCount = 0;

    // Not measured: sharp's first load and each server's first pictures.
    for (const [target, waiting] of [
      [parley, parleyWaiting],
      [ref, refWaiting],
    ] as const)
      for (const [slot] of [rate.pick(conversations, 1), rate.pick(conversations, 1)]) {
        rate.sent(slot!.conversation.roomId, slot!.sender.userId);
        await sendAndWait(target, waiting, slot!.conversation, slot!.sender, photos[sentCount++ % photos.length]!, `warm-${sentCount}`);
      }

    const scenarios: Record<string, unknown> = {};
    for (const kind of opts.scenarios as Array<'direct' | 'group'>)
      for (const concurrency of [1, opts.concurrency]) {
        const pool2 = conversations.filter((c) => c.kind === kind);
        const mine = { parley: [] as Sample[], reference: [] as Sample[], parleyLost: 0, referenceLost: 0 };
        server.startSampling();
        reference.startSampling();
        for (let sent = 0; sent < opts.pictures;) {
          const slots = rate.pick(pool2, Math.min(concurrency, opts.pictures - sent));
          if (slots.length < Math.min(concurrency, opts.pictures - sent)) {
            await new Promise((r) => setTimeout(r, 1000));
            continue;
          }
          const wave = slots.map((s) => ({ ...s, photo: photos[sentCount++ % photos.length]!, clientId: `p${sentCount}` }));
          for (const s of wave) rate.sent(s.conversation.roomId, s.sender.userId);
          const parleyWave = await Promise.all(
            wave.map((s) => sendAndWait(parley, parleyWaiting, s.conversation, s.sender, s.photo, s.clientId)),
          );
          const refWave = await Promise.all(wave.map((s) => sendAndWait(ref, refWaiting, s.conversation, s.sender, s.photo, s.clientId)));
          for (const r of parleyWave) {
            mine.parley.push(...r.samples);
            mine.parleyLost += r.lost;
          }
          for (const r of refWave) {
            mine.reference.push(...r.samples);
            mine.referenceLost += r.lost;
          }
          sent += wave.length;
        }
        const p = summaryOf(mine.parley, mine.parleyLost);
        const r = summaryOf(mine.reference, mine.referenceLost);
        const name = `${kind}, ${concurrency} sender${concurrency > 1 ? 's' : ''} at once`;
        scenarios[name] = {
          parley: { ...p, server: server.stopSampling() },
          reference: { ...r, server: reference.stopSampling() },
          ratioP50: Math.round((p.toThumbnailMs.p50 / r.toThumbnailMs.p50) * 100) / 100,
          goalMet: p.toThumbnailMs.p50 < 1000,
          loadAverage: os.loadavg(),
        };
        console.log(
          `bench:pictures ${name}: to the thumbnail p50 ${p.toThumbnailMs.p50} / p95 ${p.toThumbnailMs.p95} / p99 ${p.toThumbnailMs.p99} ms (${p.deliveries} deliveries, ${p.lost} lost; upload p50 ${p.uploadMs.p50}, message p50 ${p.toMessageMs.p50}); reference p50 ${r.toThumbnailMs.p50} / p95 ${r.toThumbnailMs.p95} / p99 ${r.toThumbnailMs.p99} ms (upload p50 ${r.uploadMs.p50}); goal p50 < 1000 ms: ${p.toThumbnailMs.p50 < 1000 ? 'met' : 'not met'}`,
        );
      }
    results.scenarios = scenarios;
    // What the encoder's settings cost in bytes: the stored picture and thumbnail, by photo sent.
    const { rows } = await pool.query<{ full: number; thumb: number }>(
      `select avg(length(bytes))::int as full, avg(length(thumb))::int as thumb from room_attachments where kind = 'image' and length(bytes) > 1`,
    );
    results.storedAverageBytes = rows[0];
    results.loadAverage = os.loadavg();
  } finally {
    for (const s of sockets) s.disconnect();
    await pool.end();
    await server.stop();
    await reference.stop();
    await db.drop();
  }
  await mkdir(path.join(repoRoot, 'bench/results'), { recursive: true });
  await writeFile(path.join(repoRoot, 'bench/results', `${opts.out}.json`), JSON.stringify(results, null, 2) + '\n');
}

await main();
