import { describe, expect, it, vi } from 'vitest';
import { REVIEW_WEIGHT, reviewList } from './review.ts';

type Deferred<T> = { promise: Promise<T>; resolve(v: T): void };
const deferred = <T>(): Deferred<T> => {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
};
const tick = () => new Promise((r) => setTimeout(r, 0));

/** A report desk whose answers the test gives, one call at a time. */
function desk() {
  const looks: Array<Deferred<string[]>> = [];
  const rereads: Array<{ userId: string } & Deferred<number>> = [];
  return {
    looks,
    rereads,
    inReviewIds: vi.fn(() => {
      const d = deferred<string[]>();
      looks.push(d);
      return d.promise;
    }),
    recentWeight: vi.fn((userId: string) => {
      const d = deferred<number>();
      rereads.push({ userId, ...d });
      return d.promise;
    }),
  };
}

describe('reviewList', () => {
  it('answers searches from memory once the first look is in, with no query per search', async () => {
    const d = desk();
    const list = reviewList(d, () => undefined, 60_000);
    const early = list.inReview('a');
    d.looks[0]!.resolve(['a']);
    expect(await early).toBe(true);
    expect(await list.inReview('b')).toBe(false);
    expect(d.recentWeight).not.toHaveBeenCalled();
    list.close();
  });

  it('re-reads a user reported here at once, and a search waits for that answer', async () => {
    const d = desk();
    const list = reviewList(d, () => undefined, 60_000);
    d.looks[0]!.resolve([]);
    await tick();
    list.changed('a');
    const asked = list.inReview('a');
    d.rereads[0]!.resolve(REVIEW_WEIGHT);
    expect(await asked).toBe(true);
    list.close();
  });

  it('keeps a re-read newer than the look that was running, and drops one a later look overtook', async () => {
    vi.useFakeTimers();
    try {
      const d = desk();
      const list = reviewList(d, () => undefined, 1000);
      d.looks[0]!.resolve([]);
      await vi.advanceTimersByTimeAsync(1000); // a second look starts
      list.changed('a'); // after it: newer
      d.rereads[0]!.resolve(REVIEW_WEIGHT);
      await vi.advanceTimersByTimeAsync(0);
      d.looks[1]!.resolve([]); // the look began before the report: it must not clear `a`
      await vi.advanceTimersByTimeAsync(0);
      expect(await list.inReview('a')).toBe(true);

      list.changed('b');
      await vi.advanceTimersByTimeAsync(1000); // a third look starts after b's re-read
      d.rereads[1]!.resolve(REVIEW_WEIGHT); // stale by now: the running look decides
      d.looks[2]!.resolve(['a']);
      await vi.advanceTimersByTimeAsync(0);
      await vi.advanceTimersByTimeAsync(1000);
      d.looks[3]!.resolve(['a']);
      await vi.advanceTimersByTimeAsync(0);
      expect(await list.inReview('b')).toBe(false);
      list.close();
    } finally {
      vi.useRealTimers();
    }
  });

  it('asks for each user alone while the looks fail', async () => {
    const errors: unknown[] = [];
    const d = desk();
    const list = reviewList(d, (e) => errors.push(e), 60_000);
    const asked = list.inReview('a');
    (d.looks[0] as unknown as { resolve(v: unknown): void }).resolve(Promise.reject(new Error('down')));
    await tick();
    d.rereads[0]!.resolve(REVIEW_WEIGHT);
    expect(await asked).toBe(true);
    expect(errors).toHaveLength(1);
    list.close();
  });
});
