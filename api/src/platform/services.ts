import type { Config } from './config.ts';
import type { Logger } from './logger.ts';
import { lane } from './lane.ts';
import { rateLimiters } from './rateLimit.ts';
import { loadSecrets } from './secrets.ts';
import { closeRedis, createRedis } from './redis.ts';
import { openDatabase } from '../db/client.ts';
import { searchFactsReader } from '../db/accounts.ts';

/**
 * The database, the server's secrets, Redis when REDIS_URL is set (scaled out), and what stands on
 * them: rate limits and the background lane. `close` ends Redis, then the database.
 */
export async function openServices(cfg: Config, log: Logger) {
  const database = await openDatabase({
    url: cfg.DATABASE_URL,
    dataDir: cfg.DATA_DIR,
    pgliteSharedBuffers: cfg.PGLITE_SHARED_BUFFERS,
    onIdleError: (err) => log.warn({ err }, 'an idle database connection was lost'),
    // Without its database the process only answers errors: it ends, so its supervisor starts it again.
    onLost: (err) => {
      log.fatal({ err }, 'the embedded database stopped');
      process.exit(1);
    },
  });
  const secrets = await loadSecrets(cfg);
  const redis = cfg.REDIS_URL ? createRedis(cfg.REDIS_URL) : undefined;
  // The embedded database answers one query at a time; a server's pool answers several.
  const background = lane(database.kind === 'pglite' ? 1 : 4);
  return {
    services: {
      db: database.db,
      dbKind: database.kind,
      secrets,
      redis,
      limiters: rateLimiters(redis, cfg.REDIS_KEY_PREFIX),
      background,
      // On the embedded database (on this process's core) a crowd arriving is read in fewer statements.
      searchFacts: searchFactsReader(database.db, database.kind === 'pglite' ? { ms: 4, items: 16 } : undefined),
    },
    /** The database's own numbers, for the metrics. */
    dbStats: { pool: database.pool, memory: database.memory },
    async close() {
      // What the server saw and has not written yet (rewards, counters) is written first.
      await background.idle();
      if (redis) await closeRedis(redis);
      await database.close();
    },
  };
}
