import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { TokenUser } from '@parley/contract/auth';
import { roomEvents as wire, type RoomMessage } from '@parley/contract/rooms';
import type { Database } from '../db/client.ts';
import { openTestDatabase } from '../testing/database.ts';
import { batcher } from '../platform/batcher.ts';
import { messageStore, type NewMessage } from './messageStore.ts';
import { ACCESS_TTL_MS, RoomCore, type StoredRoomFanout } from './core.ts';

let database: Database;
const rowsOf = (r: unknown) => (r as { rows: Array<Record<string, unknown>> }).rows;

beforeAll(async () => {
  // PGlite, or PostgreSQL when the suite runs on it (DATABASE_URL): the batch statement runs on both.
  database = await openTestDatabase();
}, 60_000);
afterAll(async () => {
  await database.close();
});

let n = 0;
async function newUser(): Promise<TokenUser> {
  const username = `batch${Date.now().toString(36).slice(-5)}${n++}`;
  const [row] = rowsOf(
    await database.db.execute(
      sql`insert into users (username, age, gender, is_verified) values (${username}, 30, 'female', true) returning id`,
    ),
  );
  return { userId: row!.id as string, username, avatar: '', gender: 'female', age: 30, isVerified: true, premiumUser: 'free tier' };
}
async function newRoom(members: TokenUser[]): Promise<string> {
  const [row] = rowsOf(await database.db.execute(sql`insert into stored_rooms (kind, name) values ('group', 'Batch room') returning id`));
  const roomId = row!.id as string;
  for (const m of members) await database.db.execute(sql`insert into room_members (room_id, user_id) values (${roomId}, ${m.userId})`);
  return roomId;
}
const msg = (roomId: string, sender: TokenUser, text: string, clientId = `c${n++}`): NewMessage => ({
  roomId,
  senderId: sender.userId,
  senderName: sender.username,
  text,
  clientId,
  mentions: [],
});

describe('messageStore.insertMany', () => {
  it('stores the messages of several rooms in one statement, ids gapless and in the order given per room', async () => {
    const [a, b] = [await newUser(), await newUser()];
    const [r1, r2] = [await newRoom([a, b]), await newRoom([a, b])];
    const store = messageStore(database.db);
    await store.insert(msg(r1, a, 'before'));
    const out = await store.insertMany([msg(r1, a, 'one'), msg(r2, b, 'x'), msg(r1, b, 'two'), msg(r2, a, 'y'), msg(r1, a, 'three')]);
    expect(out.map((o) => [o.message?.roomId, o.message?.id, o.message?.text, o.fresh])).toEqual([
      [r1, 2, 'one', true],
      [r2, 1, 'x', true],
      [r1, 3, 'two', true],
      [r2, 2, 'y', true],
      [r1, 4, 'three', true],
    ]);
    const [room] = rowsOf(await database.db.execute(sql`select last_message_id::int as last from stored_rooms where id = ${r1}`));
    expect(room!.last).toBe(4);
    // The sender has read what they wrote.
    const [read] = rowsOf(
      await database.db.execute(sql`select last_read_id::int as id from room_members where room_id = ${r1} and user_id = ${a.userId}`),
    );
    expect(read!.id).toBe(4);
    expect((await store.after(r1, 0, 10)).messages.map((m) => m.text)).toEqual(['before', 'one', 'two', 'three']);
  });

  it('stores a message sent twice in one batch once, and a resend of one stored before not again', async () => {
    const a = await newUser();
    const room = await newRoom([a]);
    const store = messageStore(database.db);
    const [first] = await store.insertMany([msg(room, a, 'hello', 'same-1')]);
    const out = await store.insertMany([
      msg(room, a, 'again', 'same-2'),
      msg(room, a, 'hello', 'same-1'),
      msg(room, a, 'again', 'same-2'),
      msg(room, a, 'new', 'same-3'),
    ]);
    expect(out.map((o) => [o.message?.id, o.fresh])).toEqual([
      [2, true],
      [first!.message!.id, false],
      [2, false],
      [3, true],
    ]);
    const [count] = rowsOf(await database.db.execute(sql`select count(*)::int as n from room_messages where room_id = ${room}`));
    expect(count!.n).toBe(3);
  });

  it('answers null for a room that does not exist, and stores the rest', async () => {
    const a = await newUser();
    const room = await newRoom([a]);
    const out = await messageStore(database.db).insertMany([
      msg('00000000-0000-4000-8000-000000000000', a, 'nowhere'),
      msg(room, a, 'here'),
    ]);
    expect(out[0]).toEqual({ message: null, fresh: false });
    expect(out[1]!.message?.id).toBe(1);
  });

  it('warms every connection without storing anything, and posts go on from the same ids', async () => {
    const [a, b] = [await newUser(), await newUser()];
    const room = await newRoom([a, b]);
    const store = messageStore(database.db);
    const [first] = await store.insertMany([msg(room, a, 'before')]);
    const count = async () => Number(rowsOf(await database.db.execute(sql`select count(*)::int as n from room_messages`))[0]!.n);
    const before = await count();
    await store.warm();
    expect(await count()).toBe(before);
    const [next] = await store.insertMany([msg(room, b, 'after')]);
    expect(next!.message!.id).toBe(first!.message!.id + 1);
  });

  it('keeps ids gapless when batches for the same rooms run at once', async () => {
    const [a, b] = [await newUser(), await newUser()];
    const rooms = [await newRoom([a, b]), await newRoom([a, b])];
    const store = messageStore(database.db);
    await Promise.all(
      Array.from({ length: 6 }, (_, k) =>
        store.insertMany(Array.from({ length: 10 }, (_, i) => msg(rooms[(k + i) % 2]!, i % 2 ? a : b, `m${k}-${i}`))),
      ),
    );
    for (const room of rooms) {
      const ids = (await store.after(room, 0, 100)).messages.map((m) => m.id);
      expect(ids).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    }
  });
});

describe('batcher', () => {
  it('runs what arrives together as one batch, and what arrives meanwhile as the next; results in the order added', async () => {
    const batches: number[][] = [];
    const b = batcher(
      async (xs: number[]) => {
        batches.push(xs);
        await new Promise((r) => setTimeout(r, 10));
        return xs.map((x) => x * 10);
      },
      { maxItems: 100 },
    );
    const seen: number[] = [];
    const first = [1, 2, 3].map((x) => b.add(x, (r) => seen.push(r)));
    await new Promise((r) => setTimeout(r, 2));
    const second = [4, 5].map((x) => b.add(x, (r) => seen.push(r)));
    expect(await Promise.all([...first, ...second])).toEqual([10, 20, 30, 40, 50]);
    expect(batches).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
    expect(seen).toEqual([10, 20, 30, 40, 50]);
  });

  it('with gatherMs, what arrives within that time leaves as one batch', async () => {
    const batches: number[][] = [];
    const b = batcher(async (xs: number[]) => (batches.push(xs), xs), { maxItems: 100, gatherMs: 100 });
    const first = b.add(1);
    await new Promise((r) => setTimeout(r, 20));
    expect(batches).toEqual([]);
    const second = b.add(2);
    expect(await Promise.all([first, second])).toEqual([1, 2]);
    expect(batches).toEqual([[1, 2]]);
  });

  it('with busyGather, a batch after a busy write waits for more (and leaves early once enough wait); after a quiet one it leaves at once', async () => {
    const batches: number[][] = [];
    let finish: (() => void) | undefined;
    const b = batcher(
      async (xs: number[]) => {
        batches.push(xs);
        await new Promise<void>((r) => (finish = r));
        return xs;
      },
      { maxItems: 100, busyGather: { ms: 400, items: 3 } },
    );
    const until = async (n: number) => {
      while (batches.length < n) await new Promise((r) => setTimeout(r, 1));
    };
    const tick = () => new Promise((r) => setTimeout(r, 30));
    // Nothing being written: the first item leaves at once.
    const done = [b.add(1)];
    await until(1);
    // Added while it is written: the write was busy, so the next batch is held back...
    done.push(b.add(2));
    finish!();
    await tick();
    expect(batches).toEqual([[1]]);
    // ...until three wait, well before the 400 ms.
    const enough = performance.now();
    done.push(b.add(3), b.add(4));
    await until(2);
    expect(performance.now() - enough).toBeLessThan(300);
    expect(batches[1]).toEqual([2, 3, 4]);
    finish!();
    // That write was quiet (nothing added meanwhile): the next item leaves at once.
    await tick();
    done.push(b.add(5));
    await until(3);
    expect(batches[2]).toEqual([5]);
    // Busy again, and too few ever wait: the batch leaves when its time is up.
    done.push(b.add(6));
    const held = performance.now();
    finish!();
    await until(4);
    expect(performance.now() - held).toBeGreaterThanOrEqual(350);
    expect(batches[3]).toEqual([6]);
    finish!();
    expect(await Promise.all(done)).toEqual([1, 2, 3, 4, 5, 6]);
    await b.settled();
  });

  it('a failed batch fails only its own items: a bad item alone, a failing database that batch alone', async () => {
    let down = false;
    const b = batcher(
      async (xs: number[]) => {
        if (down) throw new Error('database away');
        if (xs.includes(13)) throw new Error('bad item');
        return xs.map((x) => x + 1);
      },
      { maxItems: 100 },
    );
    const mixed = await Promise.allSettled([b.add(1), b.add(13), b.add(2)]);
    expect(mixed.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual([2, 'bad item', 3]);
    down = true;
    const failed = await Promise.allSettled([b.add(5), b.add(6)]);
    expect(failed.every((r) => r.status === 'rejected')).toBe(true);
    down = false;
    expect(await Promise.all([b.add(7), b.add(8)])).toEqual([8, 9]);
  });

  it('keeps batches within their size and weight', async () => {
    const sizes: number[] = [];
    const b = batcher(
      async (xs: string[]) => {
        sizes.push(xs.length);
        return xs;
      },
      { maxItems: 3, weight: (x) => x.length, maxWeight: 5 },
    );
    await Promise.all(['aa', 'bb', 'c', 'd', 'e', 'ffffff', 'g'].map((x) => b.add(x)));
    expect(sizes).toEqual([3, 2, 1, 1]);
  });
});

describe('The room core posting stored messages in batches', () => {
  function recordingFanout() {
    const sent: RoomMessage[] = [];
    const fanout: StoredRoomFanout = {
      watch: () => undefined,
      unwatch: () => undefined,
      toRoom: (_roomId, event, payload) => {
        if (event === wire.message) sent.push(payload as RoomMessage);
      },
      toUsers: () => undefined,
      unwatchUser: () => undefined,
      unwatchAll: () => undefined,
    };
    return { sent, fanout };
  }

  it('sends a room its messages in id order, a resend never twice, and answers each post with its own message', async () => {
    const members = [await newUser(), await newUser(), await newUser()];
    const roomId = await newRoom(members);
    const { sent, fanout } = recordingFanout();
    const rooms = new RoomCore({ db: database.db, fanout, allowPost: () => true });
    try {
      const posts = Array.from({ length: 30 }, (_, i) => rooms.post(members[i % 3]!, { roomId, clientId: `order-${i}`, text: `m${i}` }));
      // The same post again while the first is being stored: one message.
      posts.push(rooms.post(members[0]!, { roomId, clientId: 'order-0', text: 'm0' }));
      const answers = await Promise.all(posts);
      expect(answers.slice(0, 30).map((a) => a.ok && a.message.text)).toEqual(Array.from({ length: 30 }, (_, i) => `m${i}`));
      expect(answers[30]!.ok && answers[30]!.message.id).toBe(answers[0]!.ok && answers[0]!.message.id);
      expect(sent.map((m) => m.id)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    } finally {
      rooms.close();
    }
  });

  it('refuses a post once its sender was removed, though their access was cached', async () => {
    const [owner, other] = [await newUser(), await newUser()];
    const roomId = await newRoom([owner, other]);
    const rooms = new RoomCore({ db: database.db, fanout: recordingFanout().fanout, allowPost: () => true });
    try {
      expect((await rooms.post(other, { roomId, clientId: 'k1', text: 'hi' })).ok).toBe(true);
      await database.db.execute(sql`delete from room_members where room_id = ${roomId} and user_id = ${other.userId}`);
      rooms.removed(other.userId, { roomId, reason: 'kicked', by: owner.username, note: 'bye' });
      await expect(rooms.post(other, { roomId, clientId: 'k2', text: 'still here?' })).rejects.toMatchObject({ code: 'not_member' });
      // A mute is read again at the next post.
      expect((await rooms.post(owner, { roomId, clientId: 'k3', text: 'before the mute' })).ok).toBe(true);
      await database.db.execute(
        sql`insert into room_mutes (room_id, user_id, muted_until) values (${roomId}, ${owner.userId}, now() + interval '5 minutes')`,
      );
      rooms.muted(owner.userId, roomId, Date.now() + 300_000);
      await expect(rooms.post(owner, { roomId, clientId: 'k4', text: 'muted' })).rejects.toMatchObject({ code: 'muted' });
    } finally {
      rooms.close();
    }
  });

  it('reads cached access again before it expires: a removal whose notice was lost is refused after the refresh', async () => {
    const [owner, other] = [await newUser(), await newUser()];
    const roomId = await newRoom([owner, other]);
    let now = Date.now();
    const rooms = new RoomCore({ db: database.db, fanout: recordingFanout().fanout, allowPost: () => true, now: () => now });
    try {
      expect((await rooms.post(owner, { roomId, clientId: 'r0', text: 'welcome' })).ok).toBe(true);
      expect((await rooms.post(other, { roomId, clientId: 'r1', text: 'hi' })).ok).toBe(true);
      // Removed in the database, and nobody told this process (a notice lost with Redis away).
      await database.db.execute(sql`delete from room_members where room_id = ${roomId} and user_id = ${other.userId}`);
      now += ACCESS_TTL_MS * 0.5 - 1;
      expect((await rooms.post(other, { roomId, clientId: 'r2', text: 'cached, not yet due' })).ok).toBe(true);
      // Due (second half-life): this post is still answered from the cache and starts the read.
      now += ACCESS_TTL_MS * 0.4 + 2;
      expect((await rooms.post(other, { roomId, clientId: 'r3', text: 'due' })).ok).toBe(true);
      expect((await rooms.post(owner, { roomId, clientId: 'r3o', text: 'due too' })).ok).toBe(true);
      await expect
        .poll(
          () =>
            rooms.post(other, { roomId, clientId: 'r4', text: 'after the read' }).then(
              () => 'posted',
              (e: { code?: string }) => e.code,
            ),
          {
            timeout: 10_000,
          },
        )
        .toBe('not_member');
      // The owner, read again alongside and still a member, posts on.
      expect((await rooms.post(owner, { roomId, clientId: 'r5', text: 'still here' })).ok).toBe(true);
    } finally {
      rooms.close();
    }
  });
});
