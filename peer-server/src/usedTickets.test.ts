import { describe, expect, it } from 'vitest';
import { memoryUsedTickets, redisUsedTickets, type TicketRedis } from './usedTickets.ts';

describe('used peer tickets in memory', () => {
  it('claim a ticket once until it expires, each ticket on its own', async () => {
    let now = 1_000_000;
    const used = memoryUsedTickets(() => now);
    await expect(used.claim('t1', now + 120_000)).resolves.toBe(true);
    await expect(used.claim('t1', now + 120_000)).resolves.toBe(false);
    await expect(used.claim('t2', now + 120_000)).resolves.toBe(true);
    now += 119_000;
    await expect(used.claim('t1', now + 1000)).resolves.toBe(false);
    // Expired: the signature check refuses the ticket by then, so forgetting it is safe.
    now += 2000;
    await expect(used.claim('t1', now + 120_000)).resolves.toBe(true);
  });

  it('forget expired tickets as claims come in', async () => {
    let now = 0;
    const used = memoryUsedTickets(() => now);
    for (let i = 0; i < 1000; i++) await used.claim(`old-${i}`, now + 120_000);
    now += 121_000;
    expect(used.size()).toBe(1000);
    await used.claim('new', now + 120_000);
    expect(used.size()).toBe(1);
  });
});

describe('used peer tickets in Redis', () => {
  it('claim with SET NX PX under the prefix, until the ticket expires', async () => {
    const calls: unknown[][] = [];
    const keys = new Set<string>();
    const redis: TicketRedis = {
      set(key, value, px, ms, nx) {
        calls.push([key, value, px, ms, nx]);
        if (keys.has(key)) return Promise.resolve(null);
        keys.add(key);
        return Promise.resolve('OK');
      },
    };
    const used = redisUsedTickets(redis, 'p:');
    const exp = Date.now() + 60_000;
    await expect(used.claim('t1', exp)).resolves.toBe(true);
    await expect(used.claim('t1', exp)).resolves.toBe(false);
    expect(calls[0]).toEqual(['p:peer-ticket:t1', '1', 'PX', expect.any(Number), 'NX']);
    expect(calls[0]![3]).toBeGreaterThan(59_000);
    expect(calls[0]![3]).toBeLessThanOrEqual(60_000);
  });
});
