/**
 * The bench references' token check: Parley's HS256 access token verified with the plain crypto
 * module (signature in constant time, not expired), sharing none of Parley's code.
 */
import { createHmac, createSecretKey, timingSafeEqual } from 'node:crypto';

const key = createSecretKey(Buffer.from(process.env.JWT_SECRET ?? '', 'utf8'));

export function verify(token) {
  if (typeof token !== 'string') return null;
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  const expected = Buffer.from(createHmac('sha256', key).update(`${parts[0]}.${parts[1]}`).digest('base64url'));
  const given = Buffer.from(parts[2]);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const claims = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8'));
    return typeof claims.exp === 'number' && claims.exp > Date.now() / 1000 ? claims : null;
  } catch {
    return null;
  }
}
