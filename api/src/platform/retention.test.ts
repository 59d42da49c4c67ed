import { describe, expect, it } from 'vitest';
import pino from 'pino';
import { metricsText } from './metrics.ts';
import { retentionJobs } from './retention.ts';

const quiet = pino({ level: 'silent' });
const NEVER = 24 * 60 * 60_000;

async function sample(name: string, labels: string): Promise<number | undefined> {
  const { body } = await metricsText();
  const line = body.split('\n').find((l) => l.startsWith(`${name}{${labels}}`) || l.startsWith(`${name}{${labels},`));
  return line === undefined ? undefined : Number(line.split(' ').at(-1));
}

describe('retention jobs', () => {
  it('run in order, and each run is counted by outcome with the rows it deleted and when it last succeeded', async () => {
    const order: string[] = [];
    const jobs = retentionJobs(
      [
        { name: 'test_first', run: async () => (order.push('first'), 3) },
        {
          name: 'test_broken',
          run: async () => {
            order.push('broken');
            throw new Error('database unreachable');
          },
        },
        { name: 'test_last', run: async () => (order.push('last'), 0) },
      ],
      quiet,
      { firstMs: NEVER, everyMs: NEVER },
    );
    const before = Date.now() / 1000;
    await jobs.runNow();
    await jobs.runNow();
    await jobs.close();
    // A failing job does not stop the ones after it.
    expect(order).toEqual(['first', 'broken', 'last', 'first', 'broken', 'last']);
    expect(await sample('parley_retention_runs_total', 'task="test_first",outcome="ok"')).toBe(2);
    expect(await sample('parley_retention_rows_deleted_total', 'task="test_first"')).toBe(6);
    expect(await sample('parley_retention_runs_total', 'task="test_broken",outcome="failed"')).toBe(2);
    expect(await sample('parley_retention_last_success_timestamp_seconds', 'task="test_broken"')).toBeUndefined();
    expect(await sample('parley_retention_last_success_timestamp_seconds', 'task="test_last"')).toBeGreaterThanOrEqual(Math.floor(before));
  });

  it('never runs two passes at once: a pass asked for during one is that one', async () => {
    let release!: () => void;
    let started = 0;
    const jobs = retentionJobs([{ name: 'test_slow', run: () => (started++, new Promise<number>((r) => (release = () => r(1)))) }], quiet, {
      firstMs: NEVER,
      everyMs: NEVER,
    });
    const a = jobs.runNow();
    const b = jobs.runNow();
    expect(b).toBe(a);
    release();
    await a;
    expect(started).toBe(1);
    await jobs.close();
  });

  it('run on their own schedule: soon after start, then every period', async () => {
    let runs = 0;
    const jobs = retentionJobs([{ name: 'test_scheduled', run: async () => (runs++, 0) }], quiet, { firstMs: 10, everyMs: 50 });
    await expect.poll(() => runs, { timeout: 10_000 }).toBeGreaterThanOrEqual(3);
    await jobs.close();
  });
});
