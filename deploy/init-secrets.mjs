// Runs once before the API replicas start (docker-compose `init-secrets`): generates the secrets
// every replica and the peer server must share — token signing key, VAPID key pair — into
// DATA_DIR/secrets.json (mode 600), unless they are given in the environment. The same code as a
// single server's first start, so both read the file the same way.
import { register } from 'tsx/esm/api';

register();
const { ConfigError, loadConfig } = await import('../api/src/platform/config.ts');
const { loadSecrets } = await import('../api/src/platform/secrets.ts');
let cfg;
try {
  cfg = loadConfig();
} catch (e) {
  if (!(e instanceof ConfigError)) throw e;
  console.error(e.message);
  process.exit(1);
}
await loadSecrets(cfg);
console.log(`Shared secrets are ready in ${cfg.DATA_DIR}/secrets.json`);
