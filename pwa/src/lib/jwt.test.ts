import { describe, expect, it } from 'vitest';
import { decodeJwtPayload, tokenExpiresAt } from './jwt';

function fakeJwt(payload: object): string {
  const b64url = (s: string) => Buffer.from(s).toString('base64url');
  return `${b64url('{"alg":"HS256","typ":"JWT"}')}.${b64url(JSON.stringify(payload))}.signature`;
}

describe('decodeJwtPayload', () => {
  it('reads the payload, including non-ASCII characters', () => {
    const token = fakeJwt({ username: 'Zoë_ü', userId: 'u1', exp: 1700000000 });
    expect(decodeJwtPayload(token)).toEqual({ username: 'Zoë_ü', userId: 'u1', exp: 1700000000 });
    expect(tokenExpiresAt(token)).toBe(1700000000);
  });

  it('answers null for something that is not a token', () => {
    expect(decodeJwtPayload('not-a-token')).toBeNull();
    expect(decodeJwtPayload('a.%%%.c')).toBeNull();
    expect(decodeJwtPayload(`x.${Buffer.from('[1,2]').toString('base64url')}.y`)).toBeNull();
    expect(tokenExpiresAt(fakeJwt({ username: 'a' }))).toBeNull();
  });
});
