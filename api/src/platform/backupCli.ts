import path from 'node:path';
import { loadConfig } from './config.ts';
import { backup, BackupError, restore } from './backup.ts';

/**
 * `npm run backup -- [file]` and `npm run restore -- <file> [--force]`: the embedded database and
 * the rest of DATA_DIR, with Parley stopped. PostgreSQL is backed up with pg_dump (README, "Backups").
 */
const [command, ...args] = process.argv.slice(2);
const force = args.includes('--force');
const [file] = args.filter((a) => a !== '--force');
const cfg = loadConfig();

function postgresHint(): never {
  console.error(
    'DATABASE_URL is set: the database is on a PostgreSQL server. Back it up with pg_dump and restore it with pg_restore ' +
      '(README, "Backups"); keep DATA_DIR/secrets.json (or your JWT_SECRET and VAPID keys) with it.',
  );
  process.exit(2);
}

try {
  if (command === 'backup') {
    if (cfg.DATABASE_URL) postgresHint();
    const out = file ?? `parley-backup-${new Date().toISOString().replace(/[:.]/g, '-')}.tar.gz`;
    const m = await backup(cfg.DATA_DIR, out);
    console.log(`Backed up ${path.resolve(cfg.DATA_DIR)} (${m.entries.join(', ')}) to ${path.resolve(out)}.`);
    console.log('It holds the generated secrets too: keep it where only you can read it.');
  } else if (command === 'restore') {
    if (!file) {
      console.error('Usage: npm run restore -- <backup.tar.gz> [--force]');
      process.exit(2);
    }
    if (cfg.DATABASE_URL) postgresHint();
    const r = await restore(file, cfg.DATA_DIR, { force });
    if (r.setAside) console.log(`What ${path.resolve(cfg.DATA_DIR)} held before is in ${r.setAside}.`);
    console.log(
      `Restored the backup of ${r.manifest.createdAt} into ${path.resolve(cfg.DATA_DIR)}: ` +
        `${r.accounts} accounts, ${r.rooms} rooms, ${r.messages} messages. Start Parley with this DATA_DIR.`,
    );
  } else {
    console.error('Usage: npm run backup -- [file]  |  npm run restore -- <file> [--force]');
    process.exit(2);
  }
} catch (err) {
  if (!(err instanceof BackupError)) throw err;
  console.error(err.message);
  process.exit(1);
}
