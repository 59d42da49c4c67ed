import { randomUUID } from 'node:crypto';

/**
 * Requests to another process over the cluster bus and the answers they wait for: each request
 * gets an id, its answer arrives by that id, and none waits past `timeoutMs` (undefined then).
 */
export function awaitedReplies<A>(timeoutMs: number) {
  const pending = new Map<string, (answer: A | undefined) => void>();
  return {
    /** Sends a request under a fresh id (`send` publishes it) and waits for its answer. */
    ask(send: (id: string) => void): Promise<A | undefined> {
      const id = randomUUID();
      return new Promise((resolve) => {
        const timer = setTimeout(() => settle(undefined), timeoutMs);
        const settle = (a: A | undefined) => {
          clearTimeout(timer);
          pending.delete(id);
          resolve(a);
        };
        pending.set(id, settle);
        send(id);
      });
    },
    /** The answer to `id` arrived (nobody waits any more when it came too late). */
    answer(id: string, a: A) {
      pending.get(id)?.(a);
    },
    /** Every request still waiting gets `a` (this process is closing). */
    answerAll(a: A) {
      for (const settle of [...pending.values()]) settle(a);
    },
  };
}
