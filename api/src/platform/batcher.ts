/**
 * Database work gathered into batches (writes, or reads): what is added while no batch is running
 * leaves together at the end of the event loop's turn; what is added while one runs leaves
 * together right after it. One batch at a time, so batches run in the order their items were
 * added, and the busier the server, the larger (and fewer) its statements: one round trip and
 * one commit per batch, not per item, and none waiting in the pool behind a thousand others.
 *
 * Each item's result reaches its `then` synchronously and in the order items were added, before
 * any awaiting caller resumes: what follows a write (a message sent to its room) keeps that order.
 * A batch that fails is run again item by item, so a bad item fails alone; a failure of the
 * database fails the items of that batch only.
 */
export function batcher<I, R>(
  write: (items: I[]) => Promise<R[]>,
  opts: {
    /** Items at most in one batch. */
    maxItems: number;
    /** An item's weight toward `maxWeight` (e.g. its bytes); 1 by default. */
    weight?: (item: I) => number;
    maxWeight?: number;
    /**
     * Waits this long for more items before a batch leaves (work nobody waits on, such as reading
     * again what a cache still answers); without it, at the end of the event loop's turn.
     */
    gatherMs?: number;
    /**
     * Group commit under sustained load: when items were added while the last batch was being
     * written and fewer than `items` wait, the next batch waits up to `ms` for more (as
     * PostgreSQL's commit_delay does while others commit). An item added while nothing is being
     * written still leaves at once.
     */
    busyGather?: { ms: number; items: number };
  },
) {
  type Entry = { item: I; then?: ((r: R) => void) | undefined; resolve: (r: R) => void; reject: (err: unknown) => void };
  let queue: Entry[] = [];
  let writing = false;
  let scheduled = false;
  let addedWhileWriting = false;
  /** The timer of a batch held back by busyGather, which enough items start early. */
  let held: ReturnType<typeof setTimeout> | undefined;
  let settledWaiters: Array<() => void> = [];
  const settleWaiters = () => {
    if (writing || scheduled || queue.length > 0) return;
    const waiters = settledWaiters;
    settledWaiters = [];
    for (const w of waiters) w();
  };

  // A `then` that throws fails its own item only (its write stands: a resend finds it).
  const settle = (e: Entry, r: R) => {
    try {
      e.then?.(r);
    } catch (err) {
      return e.reject(err);
    }
    e.resolve(r);
  };

  async function run(batch: Entry[]) {
    let results: R[];
    try {
      results = await write(batch.map((e) => e.item));
    } catch (err) {
      if (batch.length === 1) return batch[0]!.reject(err);
      for (const e of batch) {
        let one: R;
        try {
          one = (await write([e.item]))[0]!;
        } catch (alone) {
          e.reject(alone);
          continue;
        }
        settle(e, one);
      }
      return;
    }
    batch.forEach((e, i) => settle(e, results[i]!));
  }

  function take(): Entry[] {
    const max = opts.maxWeight ?? Infinity;
    let n = 0;
    let weight = 0;
    while (n < queue.length && n < opts.maxItems) {
      weight += opts.weight?.(queue[n]!.item) ?? 1;
      if (n > 0 && weight > max) break;
      n++;
    }
    const batch = queue.slice(0, n);
    queue = queue.slice(n);
    return batch;
  }

  function start() {
    if (held) clearTimeout(held);
    held = undefined;
    scheduled = false;
    writing = true;
    void run(take()).finally(() => {
      writing = false;
      const busy = addedWhileWriting;
      addedWhileWriting = false;
      schedule(busy);
      settleWaiters();
    });
  }

  // The next batch starts in a later turn: on the embedded database (which runs on the event loop)
  // batches started from one another's promises would keep sockets from being read meanwhile.
  // A gathering batch holds no process open: whoever stops one waits for settled() first. A batch
  // held back by busyGather does (a few milliseconds), so that its writes are never left behind.
  function schedule(busy = false) {
    if (scheduled || writing || queue.length === 0) return;
    scheduled = true;
    const gather = opts.busyGather;
    if (busy && gather && queue.length < gather.items) held = setTimeout(start, gather.ms);
    else if (opts.gatherMs) setTimeout(start, opts.gatherMs).unref();
    else setImmediate(start);
  }

  return {
    /** Writes `item` with the next batch; `then` gets its result first, in the order items were added. */
    add(item: I, then?: (r: R) => void): Promise<R> {
      return new Promise<R>((resolve, reject) => {
        if (writing) addedWhileWriting = true;
        queue.push({ item, then, resolve, reject });
        if (held && queue.length >= opts.busyGather!.items) {
          clearTimeout(held);
          held = undefined;
          setImmediate(start);
        } else schedule();
      });
    },
    /** Resolves once every item added so far (and any added meanwhile) is written: a server stopping flushes first. */
    settled(): Promise<void> {
      if (!writing && !scheduled && queue.length === 0) return Promise.resolve();
      return new Promise<void>((resolve) => settledWaiters.push(resolve));
    },
    /** Items waiting for a batch (not those being written). */
    get waiting() {
      return queue.length;
    },
  };
}
