import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDatabase, type Database } from '../db/client.ts';
import { userBlocks, users } from '../db/schema.ts';
import { blockLists } from './blocks.ts';

let database: Database;
const ids: string[] = [];

beforeAll(async () => {
  database = await openDatabase({ dataDir: 'memory://' });
  const rows = await database.db
    .insert(users)
    .values(['a', 'b', 'c', 'd'].map((n) => ({ username: `blocks-${n}`, age: 30, gender: 'male' as const })))
    .returning({ id: users.id });
  ids.push(...rows.map((r) => r.id));
  const [a, b, c] = ids as [string, string, string];
  await database.db.insert(userBlocks).values([
    { blockerId: a, blockedId: b },
    { blockerId: c, blockedId: a },
  ]);
}, 60_000);
afterAll(() => database.close());

describe('block lists', () => {
  it('holds both directions: whom a user blocked and who blocked them', async () => {
    const lists = blockLists(database.db);
    const [a, b, c, d] = ids as [string, string, string, string];
    expect([...(await lists.of(a))].sort()).toEqual([b, c].sort());
    expect([...(await lists.of(b))]).toEqual([a]);
    expect([...(await lists.of(c))]).toEqual([a]);
    expect([...(await lists.of(d))]).toEqual([]);
  });

  it('answers loads of one turn with one query, later ones with the next, and caches', async () => {
    const lists = blockLists(database.db);
    const select = vi.spyOn(database.db, 'select');
    const [a, b, c, d] = ids as [string, string, string, string];
    const first = [lists.of(a), lists.of(b)];
    await new Promise((r) => setTimeout(r, 2)); // the first query has started
    const second = [lists.of(c), lists.of(d)];
    await Promise.all([...first, ...second]);
    expect(select).toHaveBeenCalledTimes(2);
    await lists.of(a);
    expect(select).toHaveBeenCalledTimes(2);
    lists.forget(a);
    await lists.of(a);
    expect(select).toHaveBeenCalledTimes(3);
    select.mockRestore();
  });
});
