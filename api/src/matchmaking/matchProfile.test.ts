import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { users } from '../db/schema.ts';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { member } from '../testing/members.ts';
import { matchProfiles, NO_PROFILE } from './matchProfile.ts';
import { searchFactsReader } from '../db/accounts.ts';

describe(`match profiles (${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`, () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  }, 60_000);
  afterAll(() => server?.close());

  it('reads those asked for in the same turn together, each answer its own person’s, in order', async () => {
    const [a, b] = [await member(server), await member(server)];
    await server.deps.db
      .update(users)
      .set({ languages: ['es'], country: 'MX', privateFields: ['country'] })
      .where(eq(users.id, a.userId));
    await server.deps.db
      .update(users)
      .set({ languages: ['ja'], learning: ['fr'] })
      .where(eq(users.id, b.userId));
    const read = matchProfiles(searchFactsReader(server.deps.db));
    const nobody = '00000000-0000-4000-8000-000000000000';
    const got = await Promise.all([read(b.userId), read(nobody), read(a.userId), read(b.userId)]);
    expect(got).toEqual([
      { speaks: ['ja'], learning: ['fr'], country: null, hideCountry: false },
      NO_PROFILE,
      { speaks: ['es'], learning: [], country: 'MX', hideCountry: true },
      { speaks: ['ja'], learning: ['fr'], country: null, hideCountry: false },
    ]);
  });
});
