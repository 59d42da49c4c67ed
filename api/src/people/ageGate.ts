import { MIN_AGE } from '@parley/contract/constants';
import { ERR } from '@parley/contract/errors';
import type { VerifyInfoBody } from '@parley/contract/auth';
import type { AppDeps } from '../deps.ts';
import { DomainError } from '../platform/errors.ts';
import { recordAgeGateFailure, setVerifyInfo, tokenUserOf } from '../db/accounts.ts';
import { devicesOf } from '../db/devices.ts';
import { ageDeclarations } from '../platform/ageDeclarations.ts';
import { liveAccount } from './profiles.ts';

export const ALREADY_VERIFIED =
  'Your age and gender are already set. To correct your age, contact support; gender is changed from your profile.';

/** The age gate of an account that has not declared its age and gender yet (a Google sign-up). */
export function ageGate({ db, tokens, limiters }: Pick<AppDeps, 'db' | 'tokens' | 'limiters'>) {
  const ages = ageDeclarations(limiters);
  const underage = () => new DomainError('forbidden', ERR.underage, 'underage');
  return {
    /**
     * Once per account: stores age and gender, marks the account verified, answers a fresh token.
     * An account that answered under age cannot try another age; one that answered cannot declare
     * itself again. Nor can another account of the same browser give an age within a day of an
     * under-age answer from it.
     */
    async verifyInfo(userId: string, body: VerifyInfoBody, sid: string | undefined, address: string): Promise<string> {
      const current = await liveAccount(db, userId);
      if (current.bannedAt) throw new DomainError('unauthenticated', ERR.unauthorized, 'unauthorized');
      if (current.ageGateFailedAt) throw underage();
      if (current.age !== null || current.gender !== null) throw new DomainError('conflict', ALREADY_VERIFIED, 'already_verified');
      // The browsers this account signed in from (their device cookies), and the page's fingerprint.
      const from = { address, devices: await devicesOf(db, userId), fingerprint: body.fingerprint };
      if (body.age < MIN_AGE) {
        await Promise.all([recordAgeGateFailure(db, userId), ages.underage(from)]);
        throw underage();
      }
      await ages.refuseIfRecentlyUnderage(from);
      // Only an account that has not answered yet is updated, even against a parallel answer.
      const account = await setVerifyInfo(db, userId, body);
      if (!account) throw new DomainError('conflict', ALREADY_VERIFIED, 'already_verified');
      return tokens.sign(tokenUserOf(account), sid);
    },
  };
}
