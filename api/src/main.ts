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
  const server = await startServer(cfg, { log });
  log.info({ url: server.url, db: server.deps.dbKind }, 'Parley is running');
  console.log(`\n  Parley is running at ${cfg.PUBLIC_URL ?? server.url}\n`);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      log.error('shutdown took longer than 10 s, exiting');
      process.exit(1);
    }, 10_000);
    force.unref();
    server
      .close()
      .then(() => flushTraces())
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
