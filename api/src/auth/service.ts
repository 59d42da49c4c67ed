import { ERR } from '@parley/contract/errors';
import { LOGIN_FAILURE_WINDOW_S, LOGIN_FAILURES_PER_ADDRESS, LOGIN_FAILURES_PER_USERNAME } from '@parley/contract/constants';
import { loginSchema, type SignupBody } from '@parley/contract/auth';
import type { AppDeps } from '../deps.ts';
import { HttpError, unauthorized } from '../platform/errors.ts';
import { consume } from '../platform/rateLimit.ts';
import {
  findAccountByGoogleId,
  findAccountById,
  findAccountByUsername,
  insertAccount,
  tokenUserOf,
  uniqueViolation,
  UsernameTakenError,
  type Account,
} from '../users/accounts.ts';
import { checkPassword, hashPassword } from './passwords.ts';
import {
  currentRefreshToken,
  deleteExpiredRefreshTokens,
  issueRefreshToken,
  revokeFamily,
  revokeFamilyOf,
  rotateRefreshToken,
  type RefreshGrant,
} from './refreshTokens.ts';
import { usernameCandidates, usernameFromProfile } from './usernames.ts';

/** What a sign-in hands the client: an access token for memory and a refresh token for the cookie. */
export type SignedIn = { accessToken: string; refresh: RefreshGrant; account: Account };

/** The parts of a Google profile that Parley keeps. */
export type GoogleProfile = {
  googleId: string;
  displayName?: string | undefined;
  email?: string | undefined;
  picture?: string | undefined;
};

const SWEEP_EVERY_MS = 60 * 60 * 1000;

export const accountSuspended = () => new HttpError(403, ERR.accountSuspended, 'account_suspended');

/** The account system's domain logic: sign-up, sign-in, sessions and Google accounts. */
export function authService(deps: Pick<AppDeps, 'db' | 'tokens' | 'limiters' | 'realtime' | 'log'>) {
  const { db, tokens, limiters } = deps;
  /**
   * A sign-in that ended (signed out, its refresh token stolen, the account suspended): its open
   * sockets (every tab of that browser) end too and sign out. deps.realtime is read at call time:
   * server.ts sets it once the realtime server exists.
   */
  const endSignIn = (familyId: string, reason: string) => {
    deps.realtime?.endSignIn(familyId, reason).catch((err: unknown) => deps.log.error({ err }, 'ending a sign-in failed'));
  };
  const onTheft = (familyId: string) => endSignIn(familyId, 'refresh_token_reused');
  /** A suspended (or deleted) account: its sockets on every device end. */
  const endAccount = (userId: string) => {
    deps.realtime?.endSession(userId, 'account_suspended').catch((err: unknown) => deps.log.error({ err }, 'ending an account\'s sessions failed'));
  };
  const failuresByUsername = limiters.create({
    keyPrefix: 'login-user',
    points: LOGIN_FAILURES_PER_USERNAME,
    durationSeconds: LOGIN_FAILURE_WINDOW_S,
  });
  const failuresByAddress = limiters.create({
    keyPrefix: 'login-addr',
    points: LOGIN_FAILURES_PER_ADDRESS,
    durationSeconds: LOGIN_FAILURE_WINDOW_S,
  });

  // Expired refresh tokens are swept from the whole table at most once per SWEEP_EVERY_MS, on sign-in
  // or refresh; per-sign-in deletes would only repeat that work on the hot path.
  let sweptAt = Date.now();
  async function sweepNowAndThen() {
    if (Date.now() - sweptAt < SWEEP_EVERY_MS) return;
    sweptAt = Date.now();
    await deleteExpiredRefreshTokens(db);
  }

  async function startSession(account: Account): Promise<SignedIn> {
    await sweepNowAndThen();
    const refresh = await issueRefreshToken(db, account.id);
    return { accessToken: await tokens.sign(tokenUserOf(account), refresh.familyId), refresh, account };
  }

  return {
    async signup(body: SignupBody): Promise<SignedIn> {
      if (await findAccountByUsername(db, body.username)) throw usernameTaken();
      const passwordHash = await hashPassword(body.password);
      try {
        const account = await insertAccount(db, {
          username: body.username,
          passwordHash,
          age: body.age,
          gender: body.gender,
          isVerified: true,
        });
        return await startSession(account);
      } catch (e) {
        // Someone took the name (in any case) between the look-up and the insert.
        if (e instanceof UsernameTakenError) throw usernameTaken();
        throw e;
      }
    },

    /**
     * Every attempt is counted before the password is checked, so parallel guesses cannot slip
     * past the limit; a success clears the username's count and gives the address its point back.
     */
    async login(input: unknown, address: string): Promise<SignedIn> {
      const raw = (input ?? {}) as Record<string, unknown>;
      if (!nonEmptyString(raw.username) || !nonEmptyString(raw.password)) {
        throw new HttpError(400, ERR.missingCredentials, 'missing_credentials');
      }
      const username = raw.username.trim();
      const userKey = username.toLowerCase().slice(0, 200);
      const wait = Math.max(await consume(failuresByUsername, userKey), await consume(failuresByAddress, address));
      if (wait > 0) throw new HttpError(429, ERR.tooManyAttempts, 'rate_limited', { 'Retry-After': String(wait) });
      // Longer than any name or password sign-up accepts: wrong, and not worth hashing.
      const credentials = loginSchema.safeParse({ username, password: raw.password });
      if (!credentials.success) throw unauthorized();
      const { password } = credentials.data;

      const account = await findAccountByUsername(db, username);
      const ok = await checkPassword(account?.passwordHash, password);
      if (!account || !ok) throw unauthorized();
      await Promise.all([failuresByUsername.delete(userKey), failuresByAddress.reward(address, 1)]);
      if (account.bannedAt) throw accountSuspended();
      return startSession(account);
    },

    /** GET /api/auth/refresh: rotates the refresh token and mints an access token from the current account. */
    async refresh(token: string | undefined): Promise<SignedIn> {
      await sweepNowAndThen();
      if (!token) throw unauthorized();
      const holder = await rotateRefreshToken(db, token, onTheft);
      if (!holder) throw unauthorized();
      const account = await findAccountById(db, holder.userId);
      if (!account || account.bannedAt) {
        await revokeFamily(db, holder.familyId);
        endAccount(holder.userId);
        throw unauthorized();
      }
      const refresh = await issueRefreshToken(db, account.id, holder.familyId);
      return { accessToken: await tokens.sign(tokenUserOf(account), holder.familyId), refresh, account };
    },

    /** GET /api/auth/info: an access token for the refresh cookie's holder, without rotating it. */
    async info(token: string | undefined): Promise<string> {
      if (!token) throw unauthorized();
      const holder = await currentRefreshToken(db, token, onTheft);
      if (!holder) throw unauthorized();
      const account = await findAccountById(db, holder.userId);
      if (!account || account.bannedAt) {
        await revokeFamily(db, holder.familyId);
        endAccount(holder.userId);
        throw unauthorized();
      }
      return tokens.sign(tokenUserOf(account), holder.familyId);
    },

    async logout(token: string | undefined): Promise<void> {
      const familyId = token ? await revokeFamilyOf(db, token) : undefined;
      if (familyId) endSignIn(familyId, 'signed_out');
    },

    /** Signs in the account linked to this Google account, creating it on first sign-in. */
    async signInWithGoogle(profile: GoogleProfile): Promise<SignedIn> {
      let account = await findAccountByGoogleId(db, profile.googleId);
      if (!account) account = await createGoogleAccount(profile);
      if (account.bannedAt) throw accountSuspended();
      return startSession(account);
    },
  };

  async function createGoogleAccount(profile: GoogleProfile): Promise<Account> {
    for (const username of usernameCandidates(usernameFromProfile(profile))) {
      try {
        return await insertAccount(db, {
          username,
          googleId: profile.googleId,
          avatar: profile.picture ?? '',
        });
      } catch (e) {
        if (e instanceof UsernameTakenError) continue;
        // The same Google account finished signing in twice at once: use the first one's account.
        if (uniqueViolation(e) === 'users_google_id_idx') {
          const existing = await findAccountByGoogleId(db, profile.googleId);
          if (existing) return existing;
        }
        throw e;
      }
    }
    throw new Error('could not find a free username for a Google account');
  }
}

export type AuthService = ReturnType<typeof authService>;

const usernameTaken = () => new HttpError(409, ERR.usernameTaken, 'username_taken');

function nonEmptyString(v: unknown): v is string {
  return typeof v === 'string' && v.trim().length > 0;
}
