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
});
