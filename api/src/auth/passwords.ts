import type * as Argon2 from '@node-rs/argon2';
import { randomBytes } from 'node:crypto';
import type { Algorithm } from '@node-rs/argon2';
import { lazyRequire } from '../platform/lazyRequire.ts';

/** argon2, loaded with the first password a process hashes or checks. */
const argon2 = () => lazyRequire('@node-rs/argon2') as typeof Argon2;

// Algorithm.Argon2id; the package declares a const enum, which isolatedModules cannot read.
const ARGON2ID = 2 as Algorithm;
// OWASP's argon2id baseline: 19 MiB of memory, 2 passes, 1 lane.
const ARGON2_OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export function hashPassword(password: string): Promise<string> {
  return argon2().hash(password, ARGON2_OPTIONS);
}

let dummyHash: Promise<string> | undefined;

/**
 * Checks a password against a stored hash. With no hash (unknown user, or an account that only
 * signs in with Google) it still verifies against a dummy hash of the same cost, so a wrong
 * username and a wrong password take the same time.
 */
export async function checkPassword(storedHash: string | null | undefined, password: string): Promise<boolean> {
  if (!storedHash) {
    dummyHash ??= hashPassword(randomBytes(16).toString('hex'));
    await argon2()
      .verify(await dummyHash, password)
      .catch(() => false);
    return false;
  }
  try {
    return await argon2().verify(storedHash, password);
  } catch {
    return false;
  }
}
