import type { Logger } from './logger.ts';

type Step = (() => unknown) | undefined;

/**
 * The server's close, run once however often it is called: each step in the order given, after the
 * one before it finished. The areas' steps that fail are logged and the next runs, so one stuck part
 * cannot keep the others open; then the platform's (HTTP server, cluster, Redis, database), whose
 * failure fails the close.
 */
export function shutdown(log: Logger, areas: Step[][], platform: Step[]): () => Promise<void> {
  let closing: Promise<void> | undefined;
  return () =>
    (closing ??= (async () => {
      for (const step of areas.flat()) {
        try {
          await step?.();
        } catch (err) {
          log.warn({ err }, 'close step failed');
        }
      }
      for (const step of platform) await step?.();
    })());
}
