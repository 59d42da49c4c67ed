import type { Logger } from 'pino';
import { retentionRan } from './metrics.ts';

/**
 * The deletions the privacy policy promises (evidence after its days, expired tokens, old
 * encounters…) as named jobs on one schedule: each run is counted and timed in the metrics, so
 * an operator sees that a promise is kept, and an alert fires when one stops running.
 */
export type RetentionJob = {
  /** A metric label: lower case, stable (`report_evidence`). */
  name: string;
  /** Deletes what is due; answers how many rows it deleted or erased. */
  run(): Promise<number>;
};

export const RETENTION_EVERY_MS = 60 * 60_000;
/** The first run comes soon after start, so a replica that restarts often still sweeps. */
const FIRST_RUN_MS = 60_000;

export function retentionJobs(jobs: RetentionJob[], log: Logger, opts: { everyMs?: number; firstMs?: number } = {}) {
  let running: Promise<void> | undefined;
  const runAll = () => {
    // One pass at a time: a slow database must not pile passes up.
    running ??= (async () => {
      for (const job of jobs) {
        try {
          const rows = await job.run();
          retentionRan(job.name, rows);
          if (rows > 0) log.info({ job: job.name, rows }, 'retention job deleted rows');
        } catch (err) {
          retentionRan(job.name, undefined);
          log.warn({ err, job: job.name }, 'retention job failed');
        }
      }
    })().finally(() => (running = undefined));
    return running;
  };
  const first = setTimeout(() => void runAll(), opts.firstMs ?? FIRST_RUN_MS);
  const every = setInterval(() => void runAll(), opts.everyMs ?? RETENTION_EVERY_MS);
  first.unref();
  every.unref();
  return {
    /** Runs every job now (tests, and an operator's one-off). */
    runNow: runAll,
    async close() {
      clearTimeout(first);
      clearInterval(every);
      await running;
    },
  };
}
