import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiRoot } from '../platform/paths.ts';
import { sql } from 'drizzle-orm';
import { openDatabase, type Database } from './client.ts';
import { uniqueViolation } from './accounts.ts';

const rowsOf = (r: unknown) => (r as { rows: Array<Record<string, unknown>> }).rows;

// The embedded database answers from its worker thread as it did on the main thread.
describe('PGlite in a worker thread', () => {
  let d: Database;
  beforeAll(async () => {
    d = await openDatabase({ dataDir: 'memory://' });
    await d.db.execute(sql`create table kv (k text primary key, v int not null)`);
  });
  afterAll(() => d.close());

  it('keeps PostgreSQL error fields (unique violations are read by constraint name)', async () => {
    await d.db.execute(sql`insert into kv values ('a', 1)`);
    const err = await d.db.execute(sql`insert into kv values ('a', 2)`).catch((e: unknown) => e);
    expect(uniqueViolation(err)).toBe('kv_pkey');
  });

  it('rolls a failed transaction back, commits a good one, and savepoints inside', async () => {
    await expect(
      d.db.transaction(async (tx) => {
        await tx.execute(sql`insert into kv values ('b', 1)`);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    const inner = await d.db.transaction(async (tx) => {
      await tx.execute(sql`insert into kv values ('c', 1)`);
      await tx.transaction(async (t2) => t2.execute(sql`insert into kv values ('d', 1)`)).catch(() => undefined);
      await tx
        .transaction(async (t2) => {
          await t2.execute(sql`insert into kv values ('e', 1)`);
          throw new Error('only this part');
        })
        .catch(() => undefined);
      return 'done';
    });
    expect(inner).toBe('done');
    const keys = rowsOf(await d.db.execute(sql`select k from kv order by k`)).map((r) => r.k);
    expect(keys).toEqual(['a', 'c', 'd']);
  });

  it('queries outside a transaction wait for it, and none is lost when many run at once', async () => {
    const tx = d.db.transaction(async (t) => {
      await t.execute(sql`update kv set v = v + 1 where k = 'a'`);
      await new Promise((r) => setTimeout(r, 50));
      await t.execute(sql`update kv set v = v + 1 where k = 'a'`);
    });
    const reads = Array.from({ length: 50 }, (_, i) => d.db.execute(sql`insert into kv values (${`n${i}`}, ${i})`));
    await Promise.all([tx, ...reads]);
    expect(rowsOf(await d.db.execute(sql`select v from kv where k = 'a'`))[0]!.v).toBe(3);
    expect(rowsOf(await d.db.execute(sql`select count(*)::int as n from kv where k like 'n%'`))[0]!.n).toBe(50);
  });

  it('hands timestamps back as text, which Drizzle parses itself by column', async () => {
    const [row] = rowsOf(await d.db.execute(sql`select now() as t`));
    expect(typeof row!.t).toBe('string');
    expect(Number.isNaN(Date.parse(String(row!.t)))).toBe(false);
  });

  it('lets a script that opens and closes it run to its end (an idle worker holds no process open, a closing one does)', async () => {
    // As a -e script with --input-type (how test templates are built): the worker must not inherit that flag.
    const script = `const { openDatabase } = await import(${JSON.stringify(pathToFileURL(path.join(apiRoot, 'src/db/client.ts')).href)});
const d = await openDatabase({ dataDir: 'memory://' });
await new Promise((r) => setTimeout(r, 50));
await d.close();
console.log('after close');`;
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: apiRoot,
    });
    expect(stdout.trim()).toBe('after close');
    // A process of its own that starts a database: a minute or more on a busy machine.
  }, 120_000);

  it('says when its thread ends unasked, and later queries fail instead of waiting', async () => {
    let lost: Error | undefined;
    const other = await openDatabase({ dataDir: 'memory://', onLost: (err) => (lost = err) });
    const thread = (other.db as unknown as { $client: { worker: { terminate(): Promise<number> } } }).$client;
    await thread.worker.terminate();
    await expect.poll(() => lost?.message).toMatch(/embedded database stopped/);
    await expect(other.db.execute(sql`select 1`)).rejects.toThrow();
    await other.close();
  }, 120_000);
});
