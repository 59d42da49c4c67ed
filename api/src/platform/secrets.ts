import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type WebPush from 'web-push';
import type { Config } from './config.ts';
import { lazyRequire } from './lazyRequire.ts';

export type Secrets = {
  jwtSecret: Uint8Array;
  vapid: { publicKey: string; privateKey: string };
};

type Stored = { jwtSecret: string; vapidPublicKey: string; vapidPrivateKey: string };

/**
 * Secrets the server needs and was not given are generated once into DATA_DIR (mode 600) and
 * reused on restart. Replicas share secrets through the environment, never through this file.
 */
export async function loadSecrets(cfg: Config): Promise<Secrets> {
  const file = path.resolve(cfg.DATA_DIR, 'secrets.json');
  let stored: Partial<Stored> = {};
  try {
    stored = JSON.parse(await readFile(file, 'utf8')) as Partial<Stored>;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  let changed = false;
  if (!cfg.JWT_SECRET && !stored.jwtSecret) {
    stored.jwtSecret = randomBytes(48).toString('base64url');
    changed = true;
  }
  if (!cfg.VAPID_PUBLIC_KEY && !(stored.vapidPublicKey && stored.vapidPrivateKey)) {
    // Only on a first start: web-push is otherwise loaded with the first push (notifications/push.ts).
    const keys = (lazyRequire('web-push') as typeof WebPush).generateVAPIDKeys();
    stored.vapidPublicKey = keys.publicKey;
    stored.vapidPrivateKey = keys.privateKey;
    changed = true;
  }
  if (changed) {
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, JSON.stringify(stored, null, 2), { mode: 0o600 });
    await chmod(file, 0o600);
  }
  return {
    jwtSecret: new TextEncoder().encode(cfg.JWT_SECRET ?? stored.jwtSecret),
    vapid: {
      publicKey: cfg.VAPID_PUBLIC_KEY ?? stored.vapidPublicKey!,
      privateKey: cfg.VAPID_PRIVATE_KEY ?? stored.vapidPrivateKey!,
    },
  };
}
