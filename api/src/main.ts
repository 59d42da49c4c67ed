import { ConfigError, loadConfig } from './platform/config.ts';
import { createLogger } from './platform/logger.ts';
import { flushTraces } from './platform/tracing.ts';
import { startServer } from './server.ts';

/** Entry point: validate configuration, start, and shut down gracefully on SIGINT/SIGTERM. */
async function main() {
  let cfg;
  try {
    cfg = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(e.message);
      process.exit(1);
    }
    throw e;
  }
  const log = createLogger(cfg);
  // Node prints a crash's stack as the bundle has it (source maps are off for the process): the
  // log has it first, mapped to the TypeScript sources.
  process.on('uncaughtExceptionMonitor', (err, origin) => log.fatal({ err, origin }, 'the server stops on an error nothing caught'));
  const server = await startServer(cfg, { log });
  log.info({ url: server.url, db: server.deps.dbKind }, 'Parley is running');
  console.log(`\n  Parley is running at ${cfg.PUBLIC_URL ?? server.url}\n`);

  let stopping = false;
  /**
   * SIGTERM (a deploy, a scale-down): scaled out, the replica drains first (server.ts `drain`: its
   * pages, chats and writes move on) and then closes; alone, it closes at once. Either way it exits
   * within SHUTDOWN_GRACE_MS. SIGINT (Ctrl-C) closes at once.
   */
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    const graceMs = cfg.SHUTDOWN_GRACE_MS;
    const force = setTimeout(() => {
      log.error({ graceMs }, 'shutdown took longer than SHUTDOWN_GRACE_MS, exiting');
      process.exit(1);
    }, graceMs);
    force.unref();
    (async () => {
      if (signal === 'SIGTERM' && server.deps.cluster) log.info(await server.drain(), 'drained');
      await server.close();
      await flushTraces();
    })()
      .then(() => process.exit(0))
      .catch((err: unknown) => {
        log.error({ err }, 'shutdown failed');
        process.exit(1);
      });
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

void main();
