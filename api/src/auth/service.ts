import { ERR } from '@parley/contract/errors';
import {
  LOGIN_FAILURE_WINDOW_S,
  LOGIN_FAILURES_PER_ADDRESS,
  LOGIN_FAILURES_PER_USERNAME,
  POW_AFTER_LOGIN_FAILURES,
  SIGNUP_DAY_FACTOR,
  SIGNUP_WINDOW_S,
  SIGNUPS_PER_DEVICE,
} from '@parley/contract/constants';
import {
  fingerprintSchema,
  loginSchema,
  usernameSchema,
  USERNAME_SUGGESTIONS,
  type SignupBody,
  type UsernameCheck,
} from '@parley/contract/auth';
import { banMessage, SAFETY_ERR } from '@parley/contract/safety';
import { and, eq, isNull, or } from 'drizzle-orm';
import type { AppDeps } from '../deps.ts';
import { DomainError } from '../platform/errors.ts';
import {
  findAccountByGoogleId,
  findAccountById,
  findAccountByUsername,
  activeBan,
  insertAccount,
  takenUsernames,
  tokenUserOf,
  uniqueViolation,
  UsernameTakenError,
  type Account,
} from '../db/accounts.ts';
import { deviceBanned, recordDevice } from '../db/devices.ts';
import { recordSignals, signalsOfBannedAccounts, type Signals } from '../db/accountSignals.ts';
import { ageDeclarations } from '../platform/ageDeclarations.ts';
import { publicNetworkOf } from '../platform/address.ts';
import { passkeys, pushSubscriptions, users } from '../db/schema.ts';
import { checkPassword, hashPassword } from './passwords.ts';
import { proofOfWork } from './proofOfWork.ts';
import {
  currentRefreshToken,
  issueRefreshToken,
  revokeFamily,
  revokeFamilyOf,
  rotateRefreshToken,
  type RefreshGrant,
} from './refreshTokens.ts';
import { suggestionCandidates, usernameCandidates, usernameFromProfile } from './usernames.ts';

/** What a sign-in hands the client: an access token for memory and a refresh token for the cookie. */
export type SignedIn = { accessToken: string; refresh: RefreshGrant; account: Account };
/** A right password on an account with two-factor on: no session until the second factor (auth/factors). */
export type SecondFactorDue = { secondFactorDue: Account };

/** The parts of a Google profile that Parley keeps. */
export type GoogleProfile = {
  googleId: string;
  displayName?: string | undefined;
  email?: string | undefined;
  picture?: string | undefined;
};

/** Username checks an address may make per sign-up it is allowed (SIGNUPS_PER_ADDRESS an hour). */
export const USERNAME_CHECKS_PER_SIGNUP = 6;

export const accountSuspended = () => new DomainError('forbidden', ERR.accountSuspended, 'account_suspended');

const refusedBan = (ban: { until: Date | null; rule: string | null }) => new DomainError('forbidden', banMessage(ban), 'account_suspended');

/** The account a username and password belong to, checked as sign-in checks them; undefined otherwise. */
export async function verifyCredentials(db: AppDeps['db'], username: string, password: string): Promise<Account | undefined> {
  const account = await findAccountByUsername(db, username.trim());
  return account && (await checkPassword(account.passwordHash, password)) ? account : undefined;
}
const unauthorized = () => new DomainError('unauthenticated', ERR.unauthorized, 'unauthorized');
const usernameTaken = () => new DomainError('conflict', ERR.usernameTaken, 'username_taken');
/** Refusals of linking Google to a signed-in account; Settings words them from the code. */
export const GOOGLE_LINK_ERR = {
  linkedElsewhere: 'This Google account already signs in to another Parley account.',
  alreadyLinked: 'This account is already linked to a Google account. Unlink it first.',
  signedOut: 'The sign-in that started linking Google has ended. Sign in and try again.',
  onlyWayIn: 'Google is the only way into this account. Add a password or a passkey before unlinking it.',
} as const;
const tooManyAttempts = (retryAfterS: number) => new DomainError('too_many', ERR.tooManyAttempts, 'rate_limited', retryAfterS);

/** Where a sign-up or sign-in comes from. */
export type SignInFrom = {
  address: string;
  /** This browser's device cookie. */
  device?: string | undefined;
  /** The id of this browser's known-device cookie for the username signing in (auth/knownDevices.ts). */
  knownDevice?: string | undefined;
  /** The browser's User-Agent, for the devices list. */
  userAgent?: string | undefined;
};

/** Told of every sign-in as it starts (the devices list, alerts about a new device). */
export type OnSignedIn = (event: {
  account: Account;
  familyId: string;
  deviceId?: string | undefined;
  userAgent?: string | undefined;
  address?: string | undefined;
  newDevice: boolean;
}) => Promise<void>;

/** The username key of the failure counters and known-device cookies. */
export const usernameKey = (username: string) => username.trim().toLowerCase().slice(0, 200);

/** The account system's domain logic: sign-up, sign-in, sessions and Google accounts. */
export function authService(
  deps: Pick<AppDeps, 'cfg' | 'db' | 'tokens' | 'limiters' | 'realtime' | 'log' | 'revocations' | 'secrets'>,
  onSignedIn?: OnSignedIn,
) {
  const { db, tokens, limiters } = deps;
  const proof = proofOfWork(deps);
  /**
   * A sign-in that ended (signed out, its refresh token stolen, the account suspended): its open
   * sockets (every tab of that browser) end too and sign out.
   */
  const endSignIn = (familyId: string, reason: string) => {
    deps.revocations.revokeSignIn(familyId);
    deps.realtime.endSignIn(familyId, reason).catch((err: unknown) => deps.log.error({ err }, 'ending a sign-in failed'));
  };
  const onTheft = (familyId: string) => endSignIn(familyId, 'refresh_token_reused');
  /** A suspended (or deleted) account: its sockets on every device end. */
  const endAccount = (userId: string) => {
    deps.revocations.revokeUser(userId);
    deps.realtime
      .endSession(userId, 'account_suspended')
      .catch((err: unknown) => deps.log.error({ err }, "ending an account's sessions failed"));
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
    byAddress: true,
  });
  const signupsByAddress = limiters.create({
    keyPrefix: 'signup-addr',
    points: deps.cfg.SIGNUPS_PER_ADDRESS,
    durationSeconds: SIGNUP_WINDOW_S,
    byAddress: true,
  });
  // An address that keeps its hourly pace all day is a script making accounts, not a household.
  const signupsByAddressDaily = limiters.create({
    keyPrefix: 'signup-addr-day',
    points: deps.cfg.SIGNUPS_PER_ADDRESS * SIGNUP_DAY_FACTOR,
    durationSeconds: 24 * 60 * 60,
    byAddress: true,
  });
  const signupsByDevice = limiters.create({ keyPrefix: 'signup-device', points: SIGNUPS_PER_DEVICE, durationSeconds: 24 * 60 * 60 });
  // A browser known to the account has its own failure budget instead of the username's.
  const failuresByKnownDevice = limiters.create({
    keyPrefix: 'login-known-device',
    points: LOGIN_FAILURES_PER_USERNAME,
    durationSeconds: LOGIN_FAILURE_WINDOW_S,
  });
  const ages = ageDeclarations(limiters);
  const signalsOf = (address: string, fingerprint?: string): Signals => ({ network: publicNetworkOf(address), device: fingerprint });
  // A name check serves a sign-up: a few per sign-up allowed (the form checks on leaving the field
  // and after a taken name), so names cannot be listed much faster here than by signing up.
  const checksByAddress = limiters.create({
    keyPrefix: 'username-check-addr',
    points: deps.cfg.SIGNUPS_PER_ADDRESS * USERNAME_CHECKS_PER_SIGNUP,
    durationSeconds: SIGNUP_WINDOW_S,
    byAddress: true,
  });

  async function startSession(account: Account, from?: SignInFrom, newDevice = false): Promise<SignedIn> {
    const refresh = await issueRefreshToken(db, account.id);
    await onSignedIn?.({
      account,
      familyId: refresh.familyId,
      deviceId: from?.device,
      userAgent: from?.userAgent,
      address: from?.address,
      newDevice,
    });
    return { accessToken: await tokens.sign(tokenUserOf(account), refresh.familyId), refresh, account };
  }

  return {
    /**
     * GET /api/auth/challenge: a proof-of-work challenge for the sign-up and sign-in forms. A
     * sign-up's from a network or device fingerprint of a banned account is the hard one.
     */
    async challenge(purpose: 'signup' | 'login', address: string, fingerprint?: string) {
      const hard = purpose === 'signup' && (await signalsOfBannedAccounts(db, signalsOf(address, fingerprint))).length > 0;
      return proof.challenge(hard);
    },

    /** An age under MIN_AGE was declared from here: no age is taken from this browser for a day. */
    declaredUnderage: (from: SignInFrom, fingerprint?: string) =>
      ages.underage({ address: from.address, devices: from.device ? [from.device] : [], fingerprint }),

    /**
     * A proof of work first (a bot pays for each account), then every attempt costs one of the address's sign-ups, and the password is hashed before the name
     * is looked up: a taken name is answered no sooner than a real sign-up, so names cannot be
     * listed quickly through this door.
     */
    async signup(body: SignupBody, from: SignInFrom): Promise<SignedIn> {
      const { address, device } = from;
      // Linked to a banned account by network or device fingerprint: a much harder proof of work,
      // and the account starts restricted (safety/restrictions.ts). Not refused: networks are shared.
      const signals = signalsOf(address, body.fingerprint);
      const linkedToBan = await signalsOfBannedAccounts(db, signals);
      await proof.verify(body.altcha, linkedToBan.length > 0);
      for (const [limiter, key] of [
        [signupsByAddress, address],
        [signupsByAddressDaily, address],
        ...(device ? [[signupsByDevice, device] as const] : []),
      ] as const) {
        const allowed = await limiter.take(key);
        if (!allowed.ok) throw new DomainError('too_many', ERR.tooManySignups, 'rate_limited', allowed.retryAfterS);
      }
      if (device && (await deviceBanned(db, device))) throw new DomainError('forbidden', SAFETY_ERR.deviceBanned, 'device_banned');
      await ages.refuseIfRecentlyUnderage({ address, devices: device ? [device] : [], fingerprint: body.fingerprint });
      const passwordHash = await hashPassword(body.password);
      if (await findAccountByUsername(db, body.username)) throw usernameTaken();
      try {
        const account = await insertAccount(db, {
          username: body.username,
          passwordHash,
          age: body.age,
          gender: body.gender,
          isVerified: true,
          ...(linkedToBan.length > 0 ? { restrictedAt: new Date() } : {}),
        });
        if (linkedToBan.length > 0)
          deps.log.info({ userId: account.id, linkedBy: linkedToBan }, 'new account linked to a banned one: restricted');
        if (device) await recordDevice(db, device, account.id);
        await recordSignals(db, account.id, signals);
        return await startSession(account, from);
      } catch (e) {
        // Someone took the name (in any case) between the look-up and the insert.
        if (e instanceof UsernameTakenError) throw usernameTaken();
        throw e;
      }
    },

    /**
     * Is this name free, and which names like it are: one query for the name and its candidates.
     * Limited per address (USERNAME_CHECKS_PER_SIGNUP checks per allowed sign-up).
     */
    async checkUsername(choice: string, address: string): Promise<UsernameCheck> {
      const allowed = await checksByAddress.take(address);
      if (!allowed.ok) throw tooManyAttempts(allowed.retryAfterS);
      const username = choice.trim();
      const valid = usernameSchema.safeParse(username);
      const candidates = suggestionCandidates(username).filter((c) => c.toLowerCase() !== username.toLowerCase());
      const taken = await takenUsernames(db, valid.success ? [username, ...candidates] : candidates);
      const available = valid.success && !taken.has(username.toLowerCase());
      const suggestions = available ? [] : candidates.filter((c) => !taken.has(c.toLowerCase())).slice(0, USERNAME_SUGGESTIONS);
      const reason = available ? undefined : valid.success ? ERR.usernameTaken : valid.error.issues[0]?.message;
      return { username, available, ...(reason ? { reason } : {}), suggestions };
    },

    /**
     * Brute force is limited per address and per username without handing anyone a lock on an
     * account. Every attempt is counted before the password is checked, so parallel guesses cannot
     * slip past a limit. An address over its limit is refused before the username is looked at,
     * so it cannot spend anyone's budget. A username past its failures still lets a correct
     * password through from an address without recent failures: its owner signs in while guesses
     * cost each guessing address its turn. A success clears the username's count and gives the
     * address its point back.
     *
     * A browser that signed in to this account before (`knownDevice`) counts its failures on its
     * own budget instead of the username's: the owner's typo after an attacker's guesses is just
     * a typo. Its success leaves the username's count alone, so the attacker stays limited.
     */
    async login(input: unknown, from: SignInFrom): Promise<SignedIn | SecondFactorDue> {
      const { address, knownDevice } = from;
      const raw = (input ?? {}) as Record<string, unknown>;
      if (!nonEmptyString(raw.username) || !nonEmptyString(raw.password)) {
        throw new DomainError('invalid', ERR.missingCredentials, 'missing_credentials');
      }
      const fingerprint = fingerprintSchema.safeParse(raw.fingerprint);
      if (!fingerprint.success) throw new DomainError('invalid', fingerprint.error.issues[0]!.message, 'invalid_fingerprint');
      const username = raw.username.trim();
      const userKey = usernameKey(username);
      const [failures, failureKey] = knownDevice ? [failuresByKnownDevice, knownDevice] : [failuresByUsername, userKey];
      // Guessing passwords costs a proof of work per guess once a name or an address has failed a few times.
      const [userFailures, addressFailures] = await Promise.all([failures.used(failureKey), failuresByAddress.used(address)]);
      if (Math.max(userFailures, addressFailures) >= POW_AFTER_LOGIN_FAILURES) {
        await proof.verify(typeof raw.altcha === 'string' ? raw.altcha : undefined);
      }
      const byAddress = await failuresByAddress.take(address);
      if (!byAddress.ok) throw tooManyAttempts(byAddress.retryAfterS);
      const byUsername = await failures.take(failureKey);
      // A known device's own budget is its limit wherever it signs in from.
      if (!byUsername.ok && (knownDevice || byAddress.before > 0)) throw tooManyAttempts(byUsername.retryAfterS);
      // Longer than any name or password sign-up accepts: wrong, and not worth hashing.
      const credentials = loginSchema.safeParse({ username, password: raw.password });
      const account = credentials.success ? await findAccountByUsername(db, username) : undefined;
      const ok = credentials.success && (await checkPassword(account?.passwordHash, credentials.data.password));
      if (!account || !ok) throw byUsername.ok ? unauthorized() : tooManyAttempts(byUsername.retryAfterS);
      await Promise.all([failures.reset(failureKey), failuresByAddress.refund(address, 1)]);
      await refuseIfBanned(account);
      if (account.twoFactorAt) return { secondFactorDue: account };
      return completeSignIn(account, from, fingerprint.data);
    },

    /** A sign-in proven another way (a passkey, a second factor): the session starts as after a password. */
    completeSignIn: (account: Account, from: SignInFrom, fingerprint?: string) => completeSignIn(account, from, fingerprint),
    /** Ends one sign-in on every process (its tokens and sockets), as signing out does. */
    endSignIn,

    /** GET /api/auth/refresh: rotates the refresh token and mints an access token from the current account. */
    async refresh(token: string | undefined, address?: string): Promise<SignedIn> {
      if (!token) throw unauthorized();
      const holder = await rotateRefreshToken(db, token, onTheft);
      if (!holder) throw unauthorized();
      const account = await findAccountById(db, holder.userId);
      if (!account || activeBan(account)) {
        await revokeFamily(db, holder.familyId);
        endAccount(holder.userId);
        throw unauthorized();
      }
      const refresh = await issueRefreshToken(db, account.id, holder.familyId);
      // The networks an account keeps using, not only the one it signed in from.
      if (address) await recordSignals(db, account.id, signalsOf(address));
      return { accessToken: await tokens.sign(tokenUserOf(account), holder.familyId), refresh, account };
    },

    /** GET /api/auth/info: an access token for the refresh cookie's holder, without rotating it. */
    async info(token: string | undefined): Promise<string> {
      if (!token) throw unauthorized();
      const holder = await currentRefreshToken(db, token, onTheft);
      if (!holder) throw unauthorized();
      const account = await findAccountById(db, holder.userId);
      if (!account || activeBan(account)) {
        await revokeFamily(db, holder.familyId);
        endAccount(holder.userId);
        throw unauthorized();
      }
      return tokens.sign(tokenUserOf(account), holder.familyId);
    },

    async logout(token: string | undefined): Promise<void> {
      const familyId = token ? await revokeFamilyOf(db, token) : undefined;
      if (!familyId) return;
      endSignIn(familyId, 'signed_out');
      // The page drops its push subscription before signing out; this catches a page that could not
      // (offline, storage cleared): a signed-out device must not keep receiving the account's pushes.
      await db.delete(pushSubscriptions).where(eq(pushSubscriptions.sid, familyId));
    },

    /**
     * Links a Google account to the signed-in account that started the link. The browser's refresh
     * cookie must still be that very sign-in (user and family), so a state carried to another
     * browser or outliving its sign-in links nothing. No second factor: the owner is signed in.
     */
    async linkGoogle(
      link: { userId: string; familyId: string },
      refreshToken: string | undefined,
      profile: GoogleProfile,
    ): Promise<Account> {
      const signedOut = () => new DomainError('unauthenticated', GOOGLE_LINK_ERR.signedOut, 'google_link_signed_out');
      const holder = refreshToken ? await currentRefreshToken(db, refreshToken, onTheft) : null;
      if (!holder || holder.userId !== link.userId || holder.familyId !== link.familyId) throw signedOut();
      const account = await findAccountById(db, link.userId);
      if (!account || activeBan(account)) throw signedOut();
      const owner = await findAccountByGoogleId(db, profile.googleId);
      if (owner && owner.id !== account.id) throw new DomainError('conflict', GOOGLE_LINK_ERR.linkedElsewhere, 'google_linked_elsewhere');
      if (account.googleId && account.googleId !== profile.googleId)
        throw new DomainError('conflict', GOOGLE_LINK_ERR.alreadyLinked, 'google_already_linked');
      try {
        // Only while unlinked (or linked to this same Google account): two links at once cannot both win.
        const [linked] = await db
          .update(users)
          .set({ googleId: profile.googleId, googleEmail: profile.email ?? null })
          .where(and(eq(users.id, account.id), or(isNull(users.googleId), eq(users.googleId, profile.googleId))))
          .returning();
        if (!linked) throw new DomainError('conflict', GOOGLE_LINK_ERR.alreadyLinked, 'google_already_linked');
        return linked;
      } catch (e) {
        if (uniqueViolation(e) === 'users_google_id_idx')
          throw new DomainError('conflict', GOOGLE_LINK_ERR.linkedElsewhere, 'google_linked_elsewhere');
        throw e;
      }
    },

    /** Removes the account's Google sign-in, unless it is the only way in (no password, no passkey). */
    async unlinkGoogle(userId: string): Promise<void> {
      const account = await findAccountById(db, userId);
      if (!account?.googleId) return;
      const [key] = await db.select({ id: passkeys.id }).from(passkeys).where(eq(passkeys.userId, userId)).limit(1);
      if (!account.passwordHash && !key) throw new DomainError('conflict', GOOGLE_LINK_ERR.onlyWayIn, 'google_only_way_in');
      await db.update(users).set({ googleId: null, googleEmail: null }).where(eq(users.id, userId));
    },

    /** Signs in the account linked to this Google account, creating it on first sign-in. */
    async signInWithGoogle(profile: GoogleProfile, from: SignInFrom): Promise<SignedIn | SecondFactorDue> {
      const { address, device } = from;
      let account = await findAccountByGoogleId(db, profile.googleId);
      const existed = Boolean(account);
      const signals = signalsOf(address);
      if (!account) {
        if (device && (await deviceBanned(db, device))) throw new DomainError('forbidden', SAFETY_ERR.deviceBanned, 'device_banned');
        // No page runs during Google's round trip: no proof of work or fingerprint, the network alone links it.
        const linkedToBan = (await signalsOfBannedAccounts(db, signals)).length > 0;
        account = await createGoogleAccount(profile, linkedToBan);
      }
      await refuseIfBanned(account);
      // The address Settings shows for the link follows the Google account's own.
      if (profile.email && account.googleEmail !== profile.email)
        await db.update(users).set({ googleEmail: profile.email }).where(eq(users.id, account.id));
      // Two-factor on holds whichever way the first factor was given.
      if (account.twoFactorAt) return { secondFactorDue: account };
      const newDevice = device ? await recordDevice(db, device, account.id) : false;
      await recordSignals(db, account.id, signals);
      return startSession(account, from, existed && newDevice);
    },
  };

  async function completeSignIn(account: Account, from: SignInFrom, fingerprint?: string): Promise<SignedIn> {
    await refuseIfBanned(account);
    const newDevice = from.device ? await recordDevice(db, from.device, account.id) : false;
    await recordSignals(db, account.id, signalsOf(from.address, fingerprint));
    return startSession(account, from, newDevice);
  }

  /** A ban or suspension in force refuses sign-in with its reason; one that ended is lifted. */
  async function refuseIfBanned(account: Account): Promise<void> {
    const ban = activeBan(account);
    if (ban) throw refusedBan(ban);
    if (account.bannedAt)
      await db.update(users).set({ bannedAt: null, suspendedUntil: null, banRule: null }).where(eq(users.id, account.id));
  }

  async function createGoogleAccount(profile: GoogleProfile, restricted: boolean): Promise<Account> {
    for (const username of usernameCandidates(usernameFromProfile(profile))) {
      try {
        return await insertAccount(db, {
          username,
          googleId: profile.googleId,
          googleEmail: profile.email ?? null,
          avatar: profile.picture ?? '',
          ...(restricted ? { restrictedAt: new Date() } : {}),
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

function nonEmptyString(v: unknown): v is string {
  return typeof v === 'string' && v.trim().length > 0;
}
