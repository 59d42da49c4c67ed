import { describe, expect, it } from 'vitest';
import { lane } from './lane.ts';

describe('lane', () => {
  it('runs at most `width` at a time, in the order given, and passes results and failures through', async () => {
    const l = lane(2);
    let running = 0;
    let most = 0;
    const order: number[] = [];
    const work = (i: number) => async () => {
      running++;
      most = Math.max(most, running);
      await new Promise((r) => setTimeout(r, 5));
      order.push(i);
      running--;
      if (i === 3) throw new Error('three');
      return i;
    };
    const results = await Promise.allSettled([0, 1, 2, 3, 4, 5].map((i) => l.run(work(i))));
    expect(most).toBe(2);
    expect(order.slice(0, 2).sort()).toEqual([0, 1]);
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual([0, 1, 2, 'three', 4, 5]);
    expect(l.size).toBe(0);
  });

  it('keeps going when a work throws before returning its promise', async () => {
    const l = lane(1);
    await expect(l.run(() => Promise.reject(new Error('no')))).rejects.toThrow('no');
    await expect(l.run(async () => 7)).resolves.toBe(7);
  });
});
