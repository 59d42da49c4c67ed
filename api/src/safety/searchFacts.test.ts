import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { users } from '../db/schema.ts';
import { searchFactsReader } from '../db/accounts.ts';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { member } from '../testing/members.ts';
import { restrictions } from './restrictions.ts';

describe(`a searching person's account facts (${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`, () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  }, 60_000);
  afterAll(() => server?.close());

  it('are read once for matching and safety asking in the same turn, and the restriction answers from them', async () => {
    const [free, held] = [await member(server), await member(server)];
    await server.deps.db
      .update(users)
      .set({ languages: ['es'], restrictedAt: new Date() })
      .where(eq(users.id, held.userId));
    const read = searchFactsReader(server.deps.db);
    const safety = restrictions(server.deps.db, read);
    const select = vi.spyOn(server.deps.db, 'select');
    try {
      const [heldFacts, heldRestricted, freeRestricted] = await Promise.all([
        read(held.userId),
        safety.restricted(held.userId),
        safety.restricted(free.userId),
      ]);
      // One statement for the three asks; a restriction younger than its minimum needs no more.
      expect(select).toHaveBeenCalledTimes(1);
      expect(heldFacts).toMatchObject({ languages: ['es'], realChats: 0 });
      expect([heldRestricted, freeRestricted]).toEqual([true, false]);
      expect(await read('00000000-0000-4000-8000-000000000000')).toBeUndefined();
    } finally {
      select.mockRestore();
    }
  });

  it('on a busy reader, asks of the next turns wait a little to be read together (the embedded database)', async () => {
    const [a, b, c] = [await member(server), await member(server), await member(server)];
    const read = searchFactsReader(server.deps.db, { ms: 200, items: 16 });
    const select = vi.spyOn(server.deps.db, 'select');
    try {
      const first = read(a.userId);
      // The first read is under way: the next asks find the reader busy and are gathered.
      await new Promise((r) => setImmediate(r));
      const second = read(b.userId);
      await new Promise((r) => setTimeout(r, 20));
      const third = read(c.userId);
      const facts = await Promise.all([first, second, third]);
      expect(select).toHaveBeenCalledTimes(2);
      expect(facts.map((f) => f?.realChats)).toEqual([0, 0, 0]);
    } finally {
      select.mockRestore();
    }
  });
});
