import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Database } from '../db/client.ts';
import { userBlocks, users } from '../db/schema.ts';
import { openTestDatabase } from '../testing/database.ts';
import { blockLists, type BlockLists } from './blocks.ts';

let database: Database;
const ids: string[] = [];
const opened: BlockLists[] = [];
/** Block lists with a poll far apart unless a test asks for one: `look()` runs one on demand. */
const lists = (pollMs = 60_000) => {
  const l = blockLists(database.db, undefined, pollMs);
  opened.push(l);
  return l;
};
const newUsers = async (n: number) => {
  const rows = await database.db
    .insert(users)
    .values(
      Array.from({ length: n }, () => ({ username: `blocks-${Math.random().toString(36).slice(2)}`, age: 30, gender: 'male' as const })),
    )
    .returning({ id: users.id });
  return rows.map((r) => r.id);
};

beforeAll(async () => {
  // PGlite, or PostgreSQL when the suite runs on it (DATABASE_URL): the polls' SQL runs on both.
  database = await openTestDatabase();
  ids.push(...(await newUsers(4)));
  const [a, b, c] = ids as [string, string, string];
  await database.db.insert(userBlocks).values([
    { blockerId: a, blockedId: b },
    { blockerId: c, blockedId: a },
  ]);
}, 60_000);
afterEach(async () => {
  vi.restoreAllMocks();
  for (const l of opened.splice(0)) await l.close();
});
afterAll(async () => {
  await database.close();
});

describe('block lists', () => {
  it('holds both directions: whom a user blocked and who blocked them', async () => {
    const l = lists();
    const [a, b, c, d] = ids as [string, string, string, string];
    // Before and after the start's read of who is in a block.
    expect([...(await l.of(a))].sort()).toEqual([b, c].sort());
    await l.ready;
    expect([...(await l.of(a))].sort()).toEqual([b, c].sort());
    expect([...(await l.of(b))]).toEqual([a]);
    expect([...(await l.of(c))]).toEqual([a]);
    expect([...(await l.of(d))]).toEqual([]);
  });

  it('answers a user in no block without a query', async () => {
    const l = lists();
    await l.ready;
    const select = vi.spyOn(database.db, 'select');
    expect([...(await l.of(ids[3]!))]).toEqual([]);
    expect(select).not.toHaveBeenCalled();
  });

  it('answers loads of one turn with one query, later ones with the next, and caches', async () => {
    const l = lists();
    await l.ready;
    const select = vi.spyOn(database.db, 'select');
    const [a, b, c] = ids as [string, string, string];
    const first = [l.of(a), l.of(b)];
    await new Promise((r) => setTimeout(r, 2)); // the first query has started
    const second = [l.of(c)];
    await Promise.all([...first, ...second]);
    expect(select).toHaveBeenCalledTimes(2);
    await l.of(a);
    expect(select).toHaveBeenCalledTimes(2);
    l.forget(a);
    await l.of(a);
    expect(select).toHaveBeenCalledTimes(3);
  });

  it('counts a block this process adds at once (forget), before any poll', async () => {
    const l = lists();
    await l.ready;
    const [x, y] = await newUsers(2);
    expect([...(await l.of(x!))]).toEqual([]);
    await database.db.insert(userBlocks).values({ blockerId: x!, blockedId: y! });
    l.forget(x!);
    l.forget(y!);
    expect([...(await l.of(x!))]).toEqual([y]);
    expect([...(await l.of(y!))]).toEqual([x]);
  });

  it('sees a block written elsewhere within a poll, and drops the cached lists of both users', async () => {
    const l = lists(20);
    await l.ready;
    const [a] = ids as [string];
    const [x] = await newUsers(1);
    expect([...(await l.of(x!))]).toEqual([]);
    const before = [...(await l.of(a))];
    // Another process (or a later feature) writes the row; this one was not told.
    await database.db.insert(userBlocks).values({ blockerId: x!, blockedId: a });
    await vi.waitFor(async () => expect([...(await l.of(x!))]).toEqual([a]), { timeout: 2_000, interval: 20 });
    expect([...(await l.of(a))].sort()).toEqual([...before, x].sort());
  });

  it('reads a row once: later polls that read it back (the lookback) do not drop the cache again', async () => {
    const l = lists();
    await l.ready;
    const [x, y] = await newUsers(2);
    await database.db.insert(userBlocks).values({ blockerId: x!, blockedId: y! });
    await l.look();
    await l.of(x!);
    const select = vi.spyOn(database.db, 'select');
    await l.look();
    await l.of(x!);
    expect(select).not.toHaveBeenCalled();
  });

  it('looks everyone up after a failed poll, until a full read succeeds', async () => {
    const errors: unknown[] = [];
    const l = blockLists(database.db, (err) => errors.push(err), 60_000);
    opened.push(l);
    await l.ready;
    const [x, y] = await newUsers(2);
    const execute = vi.spyOn(database.db, 'execute').mockRejectedValueOnce(new Error('connection lost'));
    await l.look();
    expect(errors).toHaveLength(1);
    // The row the failed poll would have read: without a full read, x must be looked up.
    await database.db.insert(userBlocks).values({ blockerId: x!, blockedId: y! });
    expect([...(await l.of(x!))]).toEqual([y]);
    execute.mockRestore();
    await l.look(); // the full read
    expect([...(await l.of(y!))]).toEqual([x]);
  });
});
