import { and, eq, isNull, sql } from 'drizzle-orm';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import {
  FACTOR_ERR,
  MAX_PASSKEYS,
  SECOND_FACTOR_GUESSES,
  SECOND_FACTOR_WINDOW_S,
  type ChangePasswordBody,
  type FactorsOverview,
  type SecondFactorMethod,
  type TotpSetup,
} from '@parley/contract/factors';
import type { AppDeps } from '../../deps.ts';
import { findAccountById, findAccountByUsername, type Account } from '../../db/accounts.ts';
import { refreshTokens, totpFactors, users } from '../../db/schema.ts';
import { DomainError } from '../../platform/errors.ts';
import { webauthnRelyingParty } from '../../platform/config.ts';
import { checkPassword, hashPassword } from '../passwords.ts';
import { endSignInsOf } from '../devices/signIns.ts';
import { proofOfWork } from '../proofOfWork.ts';
import type { AuthService, SignedIn, SignInFrom } from '../service.ts';
import { usernameKey } from '../service.ts';
import { passkeyCeremonies, passkeyInfo } from './passkeys.ts';
import { pendingSignIns } from './pending.ts';
import { recoveryCodeStore } from './recoveryCodes.ts';
import { acceptedStep, newTotpSecret, totpEnrolment, totpSealer } from './totp.ts';

/** One of an account's second factors, as a form or the sign-in step sends it. */
export type FactorProof = { code: string } | { recoveryCode: string } | { passkey: unknown };

/** Recover attempts per address and per username an hour: each costs a proof of work besides. */
const RECOVERIES_PER_ADDRESS = 10;
const RECOVERIES_PER_USERNAME = 5;
/** Passkey sign-in options a browser may ask for a minute (each one stores a challenge). */
const PASSKEY_OPTIONS_PER_ADDRESS = 30;
/** A user id no account has: the recovery look-up of a name without an account costs the same query. */
const NO_ACCOUNT = '00000000-0000-0000-0000-000000000000';

const invalid = (message: string, code: string) => new DomainError('invalid', message, code);
const wrongCode = () => invalid(FACTOR_ERR.wrongCode, 'wrong_code');
const tooMany = (retryAfterS: number) => new DomainError('too_many', FACTOR_ERR.tooManyGuesses, 'rate_limited', retryAfterS);

/**
 * Passkeys, the authenticator app, recovery codes and the sign-in step between a password and a
 * session. Built on the account service: a proven sign-in starts its session the same way.
 */
export function factorService(
  deps: Pick<AppDeps, 'cfg' | 'db' | 'limiters' | 'secrets' | 'log' | 'revocations' | 'realtime'>,
  auth: AuthService,
) {
  const { db, limiters } = deps;
  const ceremonies = passkeyCeremonies(db, webauthnRelyingParty(deps.cfg));
  const pending = pendingSignIns(deps.secrets.jwtSecret);
  const codes = recoveryCodeStore(db, deps.secrets.jwtSecret);
  const proof = proofOfWork(deps);
  const guessesByUser = limiters.create({
    keyPrefix: 'factor-user',
    points: SECOND_FACTOR_GUESSES,
    durationSeconds: SECOND_FACTOR_WINDOW_S,
  });
  const guessesByAddress = limiters.create({
    keyPrefix: 'factor-addr',
    points: SECOND_FACTOR_GUESSES * 4,
    durationSeconds: SECOND_FACTOR_WINDOW_S,
    byAddress: true,
  });
  const recoveriesByAddress = limiters.create({
    keyPrefix: 'recover-addr',
    points: RECOVERIES_PER_ADDRESS,
    durationSeconds: 3600,
    byAddress: true,
  });
  const recoveriesByUsername = limiters.create({ keyPrefix: 'recover-user', points: RECOVERIES_PER_USERNAME, durationSeconds: 3600 });
  const passkeyOptionsByAddress = limiters.create({
    keyPrefix: 'passkey-options-addr',
    points: PASSKEY_OPTIONS_PER_ADDRESS,
    durationSeconds: 60,
    byAddress: true,
  });

  const sealer = totpSealer(deps.secrets.jwtSecret);
  /** The account's authenticator factor, its secret unsealed. */
  const totpOf = async (userId: string) => {
    const [row] = await db.select().from(totpFactors).where(eq(totpFactors.userId, userId)).limit(1);
    return row && { ...row, secret: sealer.open(row.secret) };
  };

  /** Every guess at a factor counts, per account and per address, before it is checked. */
  async function countGuess(userId: string, address: string | undefined) {
    const byUser = await guessesByUser.take(userId);
    if (!byUser.ok) throw tooMany(byUser.retryAfterS);
    if (address) {
      const byAddress = await guessesByAddress.take(address);
      if (!byAddress.ok) throw tooMany(byAddress.retryAfterS);
    }
  }

  /** Uses a confirmed authenticator-app code once: the step is stored in the same statement that checks it. */
  async function useTotp(userId: string, code: string): Promise<boolean> {
    const factor = await totpOf(userId);
    if (!factor?.confirmedAt) return false;
    const step = acceptedStep(factor.secret, code, factor.lastStep);
    if (step === null) return false;
    const taken = await db
      .update(totpFactors)
      .set({ lastStep: step })
      .where(and(eq(totpFactors.userId, userId), sql`(${totpFactors.lastStep} is null or ${totpFactors.lastStep} < ${step})`))
      .returning({ userId: totpFactors.userId });
    return taken.length > 0;
  }

  /** Checks one second factor of the account; a wrong one answers 400 wrong_code. */
  async function proveFactor(userId: string, factor: FactorProof, address?: string): Promise<void> {
    await countGuess(userId, address);
    if ('code' in factor) {
      if (!(await useTotp(userId, factor.code))) throw wrongCode();
    } else if ('recoveryCode' in factor) {
      if (!(await codes.consume(userId, factor.recoveryCode))) throw wrongCode();
    } else {
      const key = await ceremonies.authenticate(factor.passkey as AuthenticationResponseJSON, 'second_factor', userId);
      if (key === 'challenge') throw invalid(FACTOR_ERR.challengeExpired, 'challenge_expired');
      if (!key || key === 'unknown') throw invalid(FACTOR_ERR.passkeyFailed, 'passkey_failed');
    }
    await guessesByUser.reset(userId);
  }

  async function methodsOf(account: Account): Promise<SecondFactorMethod[]> {
    const [totp, keys, left] = await Promise.all([totpOf(account.id), ceremonies.ofUser(account.id), codes.left(account.id)]);
    return [
      ...(totp?.confirmedAt ? ['totp' as const] : []),
      ...(keys.length ? ['passkey' as const] : []),
      ...(left ? ['recovery' as const] : []),
    ];
  }

  async function accountOf(userId: string): Promise<Account> {
    const account = await findAccountById(db, userId);
    if (!account) throw new DomainError('unauthenticated', 'Unauthorized', 'unauthorized');
    return account;
  }

  /** Turns two-factor on (if it was off) and hands out a fresh set of recovery codes. */
  async function turnOn(userId: string): Promise<string[]> {
    await db
      .update(users)
      .set({ twoFactorAt: sql`now()` })
      .where(and(eq(users.id, userId), isNull(users.twoFactorAt)));
    return codes.regenerate(userId);
  }

  /** Every sign-in of the account ends (tokens, sockets): after a password reset. */
  async function signOutEverywhere(userId: string) {
    const ended = await db
      .update(refreshTokens)
      .set({ revokedAt: sql`now()` })
      .where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt)))
      .returning({ familyId: refreshTokens.familyId });
    for (const familyId of new Set(ended.map((r) => r.familyId))) auth.endSignIn(familyId, 'password_reset');
  }

  return {
    async overview(userId: string): Promise<FactorsOverview> {
      const account = await accountOf(userId);
      const [totp, keys, left] = await Promise.all([totpOf(userId), ceremonies.ofUser(userId), codes.left(userId)]);
      return {
        twoFactor: account.twoFactorAt !== null,
        totp: Boolean(totp?.confirmedAt),
        passkeys: keys.map(passkeyInfo),
        recoveryCodesLeft: left,
        hasPassword: account.passwordHash !== null,
        google: account.googleId ? { email: account.googleEmail } : null,
      };
    },

    /** A new authenticator-app secret, pending until a code confirms it; refused while one is on. */
    async totpSetup(userId: string): Promise<TotpSetup> {
      const account = await accountOf(userId);
      if ((await totpOf(userId))?.confirmedAt) throw new DomainError('conflict', 'An authenticator app is already on.', 'totp_on');
      const secret = newTotpSecret();
      const sealed = sealer.seal(secret);
      await db
        .insert(totpFactors)
        .values({ userId, secret: sealed })
        .onConflictDoUpdate({ target: totpFactors.userId, set: { secret: sealed, lastStep: null, createdAt: sql`now()` } });
      return { secret, ...(await totpEnrolment(secret, account.username)) };
    },

    /** The first code turns the app on (and two-factor with it); the answer is the new recovery codes. */
    async totpConfirm(userId: string, code: string): Promise<string[]> {
      await countGuess(userId, undefined);
      const factor = await totpOf(userId);
      if (!factor || factor.confirmedAt)
        throw new DomainError('conflict', 'Start setting up the authenticator app again.', 'totp_not_pending');
      const step = acceptedStep(factor.secret, code, null);
      if (step === null) throw wrongCode();
      await db
        .update(totpFactors)
        .set({ confirmedAt: sql`now()`, lastStep: step })
        .where(eq(totpFactors.userId, userId));
      await guessesByUser.reset(userId);
      return turnOn(userId);
    },

    /** Passkeys as the second factor: needs one. */
    async passkeyTwoFactor(userId: string): Promise<string[]> {
      if ((await ceremonies.ofUser(userId)).length === 0) throw new DomainError('conflict', FACTOR_ERR.noPasskeys, 'no_passkeys');
      return turnOn(userId);
    },

    /** Off again, proven by a current code or a recovery code; the app's secret is forgotten. */
    async turnOff(userId: string, factor: FactorProof): Promise<void> {
      await proveFactor(userId, factor);
      await db.delete(totpFactors).where(eq(totpFactors.userId, userId));
      await db.update(users).set({ twoFactorAt: null }).where(eq(users.id, userId));
    },

    regenerateCodes: (userId: string) => codes.regenerate(userId),

    async passkeyOptions(userId: string) {
      const account = await accountOf(userId);
      if ((await ceremonies.ofUser(userId)).length >= MAX_PASSKEYS)
        throw new DomainError('conflict', FACTOR_ERR.tooManyPasskeys, 'too_many_passkeys');
      return ceremonies.registrationOptions({ id: account.id, username: account.username });
    },

    async registerPasskey(userId: string, name: string, response: unknown) {
      const key = await ceremonies.register(userId, name, response as RegistrationResponseJSON);
      if (key === 'challenge') throw invalid(FACTOR_ERR.challengeExpired, 'challenge_expired');
      if (!key) throw invalid(FACTOR_ERR.passkeyFailed, 'passkey_failed');
      return passkeyInfo(key);
    },

    /** Removes a passkey of the caller; the last one of a two-factor account without an app is kept. */
    renamePasskey: (userId: string, id: string, name: string) => ceremonies.rename(userId, id, name),

    async removePasskey(userId: string, id: string): Promise<boolean> {
      const account = await accountOf(userId);
      const keys = await ceremonies.ofUser(userId);
      if (!keys.some((k) => k.id === id)) return false;
      if (account.twoFactorAt && keys.length === 1 && !(await totpOf(userId))?.confirmedAt) {
        throw new DomainError('conflict', FACTOR_ERR.lastPasskey, 'last_passkey');
      }
      return ceremonies.remove(userId, id);
    },

    /** Options for a sign-in with a discoverable passkey (the sign-in page, conditional UI). */
    async loginOptions(address: string) {
      const allowed = await passkeyOptionsByAddress.take(address);
      if (!allowed.ok) throw tooMany(allowed.retryAfterS);
      return ceremonies.authenticationOptions('login', null);
    },

    /** A passkey with the user verified is both factors: the session starts at once. */
    async passkeyLogin(response: unknown, from: SignInFrom, fingerprint?: string): Promise<SignedIn> {
      const key = await ceremonies.authenticate(response as AuthenticationResponseJSON, 'login', null);
      if (key === 'challenge') throw invalid(FACTOR_ERR.challengeExpired, 'challenge_expired');
      if (key === 'unknown') throw new DomainError('unauthenticated', FACTOR_ERR.passkeyUnknown, 'passkey_unknown');
      if (!key) throw new DomainError('unauthenticated', FACTOR_ERR.passkeyFailed, 'passkey_failed');
      return auth.completeSignIn(await accountOf(key.userId), from, fingerprint);
    },

    /** The answer to a right password on a two-factor account: a pending note and what may follow it. */
    async secondFactorDue(account: Account, device: string) {
      return { secondFactor: { pending: await pending.issue(account.id, device), methods: await methodsOf(account) } };
    },

    /** The second step again, from a note kept in a cookie (after Google's round trip). */
    async resume(token: string | undefined, device: string) {
      const userId = token ? await pending.verify(token, device) : null;
      if (!userId) throw new DomainError('unauthenticated', FACTOR_ERR.secondFactorExpired, 'second_factor_expired');
      return { secondFactor: { pending: token!, methods: await methodsOf(await accountOf(userId)) } };
    },

    /** Passkey options for the second step: the account's own passkeys only. */
    async secondFactorOptions(token: string, device: string) {
      const userId = await pending.verify(token, device);
      if (!userId) throw new DomainError('unauthenticated', FACTOR_ERR.secondFactorExpired, 'second_factor_expired');
      return ceremonies.authenticationOptions('second_factor', userId);
    },

    /** The second step: the pending note and one factor; a session only when both hold. */
    async secondFactor(token: string, factor: FactorProof, from: SignInFrom & { device: string }): Promise<SignedIn> {
      const userId = await pending.verify(token, from.device);
      if (!userId) throw new DomainError('unauthenticated', FACTOR_ERR.secondFactorExpired, 'second_factor_expired');
      await proveFactor(userId, factor, from.address);
      return auth.completeSignIn(await accountOf(userId), from);
    },

    /**
     * A forgotten password reset with a recovery code. A name without an account, and a wrong
     * code, get the same answer after the same work (the new password hashed, the code looked
     * up), so this says nothing about which names exist. The reset signs out every device.
     */
    async recover(body: { username: string; recoveryCode: string; password: string; altcha?: string | undefined }, address: string) {
      await proof.verify(body.altcha);
      const byAddress = await recoveriesByAddress.take(address);
      if (!byAddress.ok) throw tooMany(byAddress.retryAfterS);
      const byName = await recoveriesByUsername.take(usernameKey(body.username));
      if (!byName.ok) throw tooMany(byName.retryAfterS);
      const passwordHash = await hashPassword(body.password);
      const account = await findAccountByUsername(db, body.username);
      const used = await codes.consume(account?.id ?? NO_ACCOUNT, body.recoveryCode);
      if (!account || !used) throw invalid(FACTOR_ERR.recoveryFailed, 'recovery_failed');
      await db.update(users).set({ passwordHash }).where(eq(users.id, account.id));
      await signOutEverywhere(account.id);
      deps.log.info({ userId: account.id }, 'password reset with a recovery code');
    },

    /** Options for proving it is the owner with one of their passkeys while signed in (changing the password). */
    async confirmOptions(userId: string) {
      if ((await ceremonies.ofUser(userId)).length === 0) throw new DomainError('conflict', FACTOR_ERR.noPasskeys, 'no_passkeys');
      return ceremonies.authenticationOptions('second_factor', userId);
    },

    /**
     * A new password, proven by the current one or by one second factor; every other sign-in
     * ends. Only an account with nothing to prove it with (made with Google, no second factor)
     * sets one on its session alone. Wrong passwords count as guesses like wrong codes.
     */
    async changePassword(userId: string, keepSid: string | undefined, body: ChangePasswordBody, address: string): Promise<void> {
      const account = await accountOf(userId);
      const { newPassword, currentPassword, code, recoveryCode, passkey } = body;
      const factor: FactorProof | undefined =
        code !== undefined ? { code } : recoveryCode !== undefined ? { recoveryCode } : passkey !== undefined ? { passkey } : undefined;
      if (currentPassword !== undefined) {
        await countGuess(userId, address);
        if (!(await checkPassword(account.passwordHash, currentPassword)))
          throw new DomainError('forbidden', FACTOR_ERR.wrongPassword, 'wrong_password');
        await guessesByUser.reset(userId);
      } else if (factor) {
        await proveFactor(userId, factor, address);
      } else if (account.passwordHash !== null || (await methodsOf(account)).length > 0) {
        throw invalid(FACTOR_ERR.proofRequired, 'proof_required');
      }
      await db
        .update(users)
        .set({ passwordHash: await hashPassword(newPassword) })
        .where(eq(users.id, userId));
      await endSignInsOf(deps, userId, { keep: keepSid }, 'password_changed');
    },
  };
}

export type FactorService = ReturnType<typeof factorService>;
