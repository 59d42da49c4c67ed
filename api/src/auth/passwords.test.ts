import { describe, expect, it, vi } from 'vitest';
import type * as Argon2 from '@node-rs/argon2';

// Count the real argon2 verifications, to see that an unknown user costs one as well.
vi.mock('@node-rs/argon2', async (importOriginal) => {
  const real = await importOriginal<typeof Argon2>();
  return { ...real, verify: vi.fn(real.verify) };
});

const argon2 = await import('@node-rs/argon2');
const { checkPassword, hashPassword } = await import('./passwords.ts');

describe('passwords', () => {
  it('hashes with argon2id at the OWASP baseline cost', async () => {
    const hash = await hashPassword('correct horse battery');
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await checkPassword(hash, 'correct horse battery')).toBe(true);
    expect(await checkPassword(hash, 'wrong horse battery')).toBe(false);
  });

  it('runs a full argon2 verification even when there is no stored hash', async () => {
    const verify = vi.mocked(argon2.verify);
    verify.mockClear();
    expect(await checkPassword(undefined, 'anything at all')).toBe(false);
    expect(await checkPassword(null, 'anything at all')).toBe(false);
    expect(verify).toHaveBeenCalledTimes(2);
    const [dummy] = verify.mock.calls[0]!;
    expect(dummy).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });

  it('treats a corrupt stored hash as a wrong password', async () => {
    expect(await checkPassword('not-a-hash', 'x')).toBe(false);
  });
});
