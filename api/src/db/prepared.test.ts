import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Database } from './client.ts';
import { openTestDatabase } from '../testing/database.ts';
import { preparedStatements } from './prepared.ts';

let database: Database;
beforeAll(async () => {
  // PGlite, or PostgreSQL when the suite runs on it (DATABASE_URL).
  database = await openTestDatabase();
}, 60_000);
afterAll(async () => {
  await database.close();
});

it('prepares a statement once when its first calls arrive together, and answers each', async () => {
  const run = preparedStatements(database.db);
  // A text no other test prepares, so this is its first use in the session.
  const text = `select $1::text || '-${Date.now()}' as v`;
  const answers = await Promise.all(['a', 'b', 'c', 'd', 'e'].map((v) => run(text, [v])));
  expect(answers.map((rows) => String(rows[0]!.v).split('-')[0])).toEqual(['a', 'b', 'c', 'd', 'e']);
  expect(await run(text, ["it's"])).toEqual([{ v: expect.stringMatching(/^it's-/) }]);
});
