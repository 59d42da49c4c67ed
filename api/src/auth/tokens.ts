import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';
import { SignJWT } from 'jose';
import { ACCESS_TOKEN_TTL_S } from '@parley/contract/constants';
import { tokenUserSchema, type TokenUser } from '@parley/contract/auth';

const ISSUER = 'parley';
const AUDIENCE = 'parley-app';

/** A verified access token: its user, the sign-in (refresh-token family) it was minted for, and when (epoch s). */
export type AccessSession = { user: TokenUser; sid: string | undefined; issuedAt: number };

export type AccessTokens = {
  /** `sid` names the sign-in, so that signing out there can end its sockets (claim `sid`, as in OpenID Connect). */
  sign(user: TokenUser, sid?: string): Promise<string>;
  /** The token's user, or null when it is missing, malformed, expired or forged. */
  verify(token: string | undefined | null): Promise<TokenUser | null>;
  verifySession(token: string | undefined | null): Promise<AccessSession | null>;
};

export function accessTokens(secretBytes: Uint8Array, ttlSeconds = ACCESS_TOKEN_TTL_S): AccessTokens {
  // Imported once: importing the raw secret on every verify was the largest cost of a socket handshake.
  const secret = createSecretKey(secretBytes);
  return {
    async sign(user, sid) {
      // Exactly the fields the specification gives the token, plus standard claims.
      const payload: TokenUser = {
        username: user.username,
        userId: user.userId,
        avatar: user.avatar,
        gender: user.gender,
        age: user.age,
        isVerified: user.isVerified,
        premiumUser: user.premiumUser,
      };
      return new SignJWT(sid === undefined ? payload : { ...payload, sid })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(user.userId)
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setIssuedAt()
        .setExpirationTime(`${ttlSeconds}s`)
        .sign(secret);
    },
    async verify(token) {
      return verifySession(token)?.user ?? null;
    },
    async verifySession(token) {
      return verifySession(token);
    },
  };

  function verifySession(token: string | undefined | null): AccessSession | null {
    if (!token) return null;
    const payload = verifyHs256(token, secret);
    if (!payload) return null;
    const user = tokenUserSchema.safeParse(payload);
    if (!user.success || payload.sub !== user.data.userId) return null;
    return {
      user: user.data,
      sid: typeof payload.sid === 'string' ? payload.sid : undefined,
      issuedAt: typeof payload.iat === 'number' ? payload.iat : 0,
    };
  }
}

const b64json = (part: string): Record<string, unknown> | null => {
  try {
    const v: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
};

/**
 * Verifies a compact HS256 JWT signed by `sign` above and returns its claims, or null. The checks
 * of jose's jwtVerify for this case (header alg HS256 and no `crit`, the signature in constant
 * time, `exp`, `nbf`, issuer and audience), done synchronously with node:crypto: the WebCrypto
 * path jose takes costs a thread-pool round trip per token, and every socket connection and API
 * request verifies one.
 */
export function verifyHs256(token: string, key: KeyObject, now = Math.floor(Date.now() / 1000)): Record<string, unknown> | null {
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  const [h, p, sig] = parts as [string, string, string];
  const header = b64json(h);
  if (!header || header.alg !== 'HS256' || 'crit' in header) return null;
  // Compared as canonical base64url text: no other spelling of the same bytes is accepted.
  const expected = Buffer.from(createHmac('sha256', key).update(`${h}.${p}`).digest('base64url'));
  const given = Buffer.from(sig);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  const claims = b64json(p);
  if (!claims) return null;
  const { exp, nbf, iss, aud } = claims;
  if (typeof exp !== 'number' || exp <= now) return null;
  if (nbf !== undefined && (typeof nbf !== 'number' || nbf > now)) return null;
  if (iss !== ISSUER) return null;
  if (!(aud === AUDIENCE || (Array.isArray(aud) && aud.includes(AUDIENCE)))) return null;
  return claims;
}
