import type { Db } from '../db/client.ts';
import type { Logger } from '../platform/logger.ts';
import { revocableTokens, revocationList } from './revocations.ts';
import { accessTokens } from './tokens.ts';
import { bearerToken, requireUser } from './requireUser.ts';

/**
 * How every area checks the user of a request or a socket: access tokens that refuse those of
 * ended sign-ins and banned accounts (the revocations, read and kept fresh from the database), and
 * the middleware over them.
 */
export async function accessChecks(db: Db, jwtSecret: Uint8Array, log: Logger) {
  const revocations = revocationList(db, (err) => log.warn({ err }, 'reading revocations failed'));
  await revocations.start();
  const tokens = revocableTokens(accessTokens(jwtSecret), revocations);
  return {
    revocations,
    tokens,
    requireUser: requireUser(tokens),
    optionalUser: (authorization: string | undefined) => tokens.verify(bearerToken(authorization)),
  };
}
