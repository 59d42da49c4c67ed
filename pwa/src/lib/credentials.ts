import { createAction } from '@reduxjs/toolkit';
import type { TokenUser } from '@parley/contract/auth';
import { DEFAULT_PREMIUM_TIER, GENDERS } from '@parley/contract/constants';
import { decodeJwtPayload } from './jwt';

/**
 * A new access token arrived (sign-in, refresh). Shared below the features because two of them
 * answer it: auth keeps the token, the own profile takes the user it names in the same step.
 */
export const setCredentials = createAction<{ accessToken: string }>('auth/setCredentials');

/** The user an access token names (its payload's spec fields), or null when it names nobody. */
export function userFromToken(token: string): TokenUser | null {
  return toTokenUser(decodeJwtPayload(token));
}

/**
 * The token payload's spec fields (contract TokenUser), checked by hand: zod would add tens of
 * kilobytes to the first download of every page for a payload the server signed itself.
 */
function toTokenUser(p: Record<string, unknown> | null): TokenUser | null {
  if (!p || typeof p.username !== 'string' || typeof p.userId !== 'string') return null;
  const gender = (GENDERS as readonly unknown[]).includes(p.gender) ? (p.gender as TokenUser['gender']) : null;
  return {
    username: p.username,
    userId: p.userId,
    avatar: typeof p.avatar === 'string' ? p.avatar : '',
    gender,
    age: typeof p.age === 'number' && Number.isInteger(p.age) ? p.age : null,
    isVerified: p.isVerified === true,
    premiumUser: typeof p.premiumUser === 'string' ? p.premiumUser : DEFAULT_PREMIUM_TIER,
  };
}
