/**
 * Writes that can wait (rewards and counters of what the server saw), run at most `width` at a
 * time in the order given. The embedded database answers one query at a time, in order, on the
 * event loop: a wave of such writes issued at once (a quarter of all chats skipped together)
 * would hold back every request and socket behind it for seconds; through a lane they take turns
 * with them.
 */
export function lane(width: number) {
  let running = 0;
  const waiting: Array<() => void> = [];
  /** Writes given and not finished (started, waiting, or between the two). */
  let unfinished = 0;
  let idle: Array<() => void> = [];
  const finished = () => {
    if (--unfinished > 0) return;
    const waiters = idle;
    idle = [];
    for (const w of waiters) w();
  };
  // The next write starts in a later turn of the event loop: the embedded database runs on it, and
  // writes started from one another's promises would all run before any socket is read again.
  const done = () => {
    running--;
    const next = waiting.shift();
    if (next) setImmediate(next);
  };
  return {
    run<T>(work: () => Promise<T>): Promise<T> {
      unfinished++;
      const start = () => {
        running++;
        let p: Promise<T>;
        try {
          p = work();
        } catch (err) {
          p = Promise.reject(err);
        }
        p.then(done, done).finally(finished);
        return p;
      };
      if (running < width) return start();
      return new Promise<T>((resolve, reject) => waiting.push(() => start().then(resolve, reject)));
    },
    /** Resolves once every write given so far (and any given meanwhile) has finished: a server stopping waits for them. */
    idle(): Promise<void> {
      if (unfinished === 0) return Promise.resolve();
      return new Promise<void>((resolve) => idle.push(resolve));
    },
    /** Writes started or waiting. */
    get size() {
      return running + waiting.length;
    },
  };
}

export type Lane = ReturnType<typeof lane>;
