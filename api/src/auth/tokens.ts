import { createSecretKey } from 'node:crypto';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import { ACCESS_TOKEN_TTL_S } from '@parley/contract/constants';
import { tokenUserSchema, type TokenUser } from '@parley/contract/auth';

const ISSUER = 'parley';
const AUDIENCE = 'parley-app';

export type AccessTokens = {
  sign(user: TokenUser): Promise<string>;
  /** The token's user, or null when it is missing, malformed, expired or forged. */
  verify(token: string | undefined | null): Promise<TokenUser | null>;
};

export function accessTokens(secretBytes: Uint8Array, ttlSeconds = ACCESS_TOKEN_TTL_S): AccessTokens {
  // Imported once: importing the raw secret on every verify was the largest cost of a socket handshake.
  const secret = createSecretKey(secretBytes);
  return {
    async sign(user) {
      // Exactly the spec's fields (section 3) plus standard claims.
      const payload: TokenUser = {
        username: user.username,
        userId: user.userId,
        avatar: user.avatar,
        gender: user.gender,
        age: user.age,
        isVerified: user.isVerified,
        premiumUser: user.premiumUser,
      };
      return new SignJWT(payload)
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(user.userId)
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setIssuedAt()
        .setExpirationTime(`${ttlSeconds}s`)
        .sign(secret);
    },
    async verify(token) {
      if (!token) return null;
      try {
        const { payload } = await jwtVerify(token, secret, { issuer: ISSUER, audience: AUDIENCE, algorithms: ['HS256'] });
        const user = tokenUserSchema.safeParse(payload);
        return user.success && payload.sub === user.data.userId ? user.data : null;
      } catch (e) {
        if (e instanceof joseErrors.JOSEError) return null;
        throw e;
      }
    },
  };
}
