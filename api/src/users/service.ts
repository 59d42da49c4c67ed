import { MIN_AGE } from '@parley/contract/constants';
import { ERR } from '@parley/contract/errors';
import type { VerifyInfoBody } from '@parley/contract/auth';
import type { AppDeps } from '../deps.ts';
import { HttpError, unauthorized } from '../platform/errors.ts';
import { setVerifyInfo, tokenUserOf } from './accounts.ts';

/** The signed-in user's own account. */
export function usersService({ db, tokens }: Pick<AppDeps, 'db' | 'tokens'>) {
  return {
    /** The age gate: stores age and gender, marks the account verified, answers a fresh token. */
    async verifyInfo(userId: string, body: VerifyInfoBody, sid: string | undefined): Promise<string> {
      if (body.age < MIN_AGE) throw new HttpError(403, ERR.underage, 'underage');
      const account = await setVerifyInfo(db, userId, body);
      if (!account || account.bannedAt) throw unauthorized();
      return tokens.sign(tokenUserOf(account), sid);
    },
  };
}
