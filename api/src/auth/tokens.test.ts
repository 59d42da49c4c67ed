import { createHmac, createSecretKey, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SignJWT } from 'jose';
import type { TokenUser } from '@parley/contract/auth';
import { accessTokens, verifyHs256 } from './tokens.ts';

const secret = randomBytes(48);
const tokens = accessTokens(secret);
const user: TokenUser = {
  userId: '6f1c1f9e-2c55-4a8e-9d55-0a4b7f0c2b11',
  username: 'ada',
  avatar: '',
  gender: 'female',
  age: 36,
  isVerified: true,
  premiumUser: 'free tier',
};
const now = () => Math.floor(Date.now() / 1000);
const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');

/** A token like sign() makes, with parts of it changed. */
function craft(
  over: { header?: Record<string, unknown>; claims?: Record<string, unknown>; alg?: 'HS256' | 'HS512'; key?: Uint8Array } = {},
) {
  const claims = { ...user, sub: user.userId, iss: 'parley', aud: 'parley-app', iat: now(), exp: now() + 60, ...over.claims };
  return new SignJWT(claims)
    .setProtectedHeader({ alg: over.alg ?? 'HS256', typ: 'JWT', ...over.header } as { alg: string })
    .sign(createSecretKey(over.key ?? secret));
}

describe('access tokens', () => {
  it('verifies what it signs and gives back exactly the user', async () => {
    expect(await tokens.verify(await tokens.sign(user))).toEqual(user);
    expect(await tokens.verify(await craft())).toEqual(user);
  });

  it('refuses missing, malformed and foreign tokens', async () => {
    for (const t of [undefined, null, '', 'a.b', 'a.b.c.d', 'not.a.token', '..']) expect(await tokens.verify(t)).toBeNull();
    expect(await tokens.verify(await craft({ key: randomBytes(48) }))).toBeNull();
  });

  it('refuses expired, not yet valid, other issuers and audiences', async () => {
    expect(await accessTokens(secret, -60).verify(await accessTokens(secret, -60).sign(user))).toBeNull();
    expect(await tokens.verify(await craft({ claims: { exp: now() } }))).toBeNull();
    expect(await tokens.verify(await craft({ claims: { exp: undefined } }))).toBeNull();
    expect(await tokens.verify(await craft({ claims: { nbf: now() + 60 } }))).toBeNull();
    expect(await tokens.verify(await craft({ claims: { iss: 'someone-else' } }))).toBeNull();
    expect(await tokens.verify(await craft({ claims: { aud: 'another-app' } }))).toBeNull();
    expect(await tokens.verify(await craft({ claims: { aud: ['x', 'parley-app'] } }))).toEqual(user);
  });

  it('refuses other algorithms, unsigned tokens and critical headers', async () => {
    expect(await tokens.verify(await craft({ alg: 'HS512' }))).toBeNull();
    const [, payload] = (await craft()).split('.');
    const critical = `${b64({ alg: 'HS256', typ: 'JWT', crit: ['x-unknown'], 'x-unknown': 1 })}.${payload}`;
    const critSig = createHmac('sha256', secret).update(critical).digest('base64url');
    expect(await tokens.verify(`${critical}.${critSig}`)).toBeNull();
    expect(await tokens.verify(`${b64({ alg: 'none', typ: 'JWT' })}.${payload}.`)).toBeNull();
  });

  it('refuses a changed payload or signature, including another spelling of the same signature', async () => {
    const [h, p, sig] = (await craft()).split('.') as [string, string, string];
    const raised = b64({ ...JSON.parse(Buffer.from(p, 'base64url').toString()), premiumUser: 'premium' });
    expect(await tokens.verify(`${h}.${raised}.${sig}`)).toBeNull();
    const flipped = sig.slice(0, -2) + (sig.at(-2) === 'A' ? 'B' : 'A') + sig.at(-1);
    expect(await tokens.verify(`${h}.${p}.${flipped}`)).toBeNull();
    expect(await tokens.verify(`${h}.${p}.${sig}=`)).toBeNull();
    expect(await tokens.verify(`${h}.${p}.${sig}*`)).toBeNull();
    expect(verifyHs256(`${h}.${p}.${sig}`, createSecretKey(secret))).toMatchObject({ sub: user.userId });
  });

  it('refuses a token whose subject is not its user', async () => {
    expect(await tokens.verify(await craft({ claims: { sub: 'someone-else' } }))).toBeNull();
  });
});
