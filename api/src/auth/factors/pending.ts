import { createHash, createHmac, createSecretKey } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import { SECOND_FACTOR_TTL_S } from '@parley/contract/factors';

const AUDIENCE = 'parley-second-factor';

/**
 * "Password right, second factor pending": a short-lived signed note naming the account and the
 * browser (its device cookie), so a stolen note is of no use elsewhere. It is no session: nothing
 * but the second-factor step accepts it.
 */
export function pendingSignIns(jwtSecret: Uint8Array, ttlS = SECOND_FACTOR_TTL_S) {
  // A key of its own: a pending note can never pass for an access token, nor the other way round.
  const key = createSecretKey(createHmac('sha256', jwtSecret).update('parley second factor v1').digest());
  const bind = (device: string) => createHash('sha256').update(device).digest('base64url').slice(0, 22);
  return {
    issue(userId: string, device: string): Promise<string> {
      return new SignJWT({ dev: bind(device) })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(userId)
        .setAudience(AUDIENCE)
        .setIssuedAt()
        .setExpirationTime(`${ttlS}s`)
        .sign(key);
    },
    /** The account the note names, when it is genuine, current and from this browser. */
    async verify(token: string, device: string): Promise<string | null> {
      try {
        const { payload } = await jwtVerify(token, key, { audience: AUDIENCE, algorithms: ['HS256'] });
        return payload.dev === bind(device) && typeof payload.sub === 'string' ? payload.sub : null;
      } catch {
        return null;
      }
    },
  };
}
