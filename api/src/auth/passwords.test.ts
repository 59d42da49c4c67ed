import type * as Argon2 from '@node-rs/argon2';
import { describe, expect, it, vi } from 'vitest';
import { lazyRequire } from '../platform/lazyRequire.ts';
import { checkPassword, hashPassword } from './passwords.ts';

// The module object passwords.ts loads (and calls through), to count its real verifications.
const argon2 = lazyRequire('@node-rs/argon2') as typeof Argon2;

describe('passwords', () => {
  it('hashes with argon2id at the OWASP baseline cost', async () => {
    const hash = await hashPassword('correct horse battery');
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await checkPassword(hash, 'correct horse battery')).toBe(true);
    expect(await checkPassword(hash, 'wrong horse battery')).toBe(false);
  });

  it('runs a full argon2 verification even when there is no stored hash', async () => {
    const verify = vi.spyOn(argon2, 'verify');
    expect(await checkPassword(undefined, 'anything at all')).toBe(false);
    expect(await checkPassword(null, 'anything at all')).toBe(false);
    expect(verify).toHaveBeenCalledTimes(2);
    const [dummy] = verify.mock.calls[0]!;
    expect(dummy).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    verify.mockRestore();
  });

  it('treats a corrupt stored hash as a wrong password', async () => {
    expect(await checkPassword('not-a-hash', 'x')).toBe(false);
  });
});
