import type * as WebAuthn from '@simplewebauthn/server';
import type {
  AuthenticationResponseJSON,
  AuthenticatorTransport,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { and, asc, eq, lt, sql } from 'drizzle-orm';
import { WEBAUTHN_CHALLENGE_TTL_S, type PasskeyInfo } from '@parley/contract/factors';
import type { Db } from '../../db/client.ts';
import { passkeys, webauthnChallenges } from '../../db/schema.ts';
import { lazyRequire } from '../../platform/lazyRequire.ts';

let loaded: typeof WebAuthn | undefined;
/** Loaded at the first passkey: about 4 MB of heap and 15 MB of a process's memory that most processes never use. */
const webauthn = (): typeof WebAuthn => (loaded ??= lazyRequire('@simplewebauthn/server') as typeof WebAuthn);

export type ChallengePurpose = 'register' | 'login' | 'second_factor';
export type Passkey = typeof passkeys.$inferSelect;
export type RelyingParty = { rpID: string; origin: string };

/** The challenge a browser signed, read from its client data; the library checks the rest. */
function challengeOf(response: { response: { clientDataJSON: string } }): string | undefined {
  try {
    const data = JSON.parse(Buffer.from(response.response.clientDataJSON, 'base64url').toString('utf8')) as { challenge?: unknown };
    return typeof data.challenge === 'string' && data.challenge.length <= 200 ? data.challenge : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Passkeys (WebAuthn) over @simplewebauthn/server. Every challenge is stored for one purpose (and
 * one account when it is known), lives WEBAUTHN_CHALLENGE_TTL_S and is deleted as it is answered,
 * so an answer cannot be replayed nor used for another purpose or account.
 */
/** What the account's owner sees of a passkey. */
export function passkeyInfo(k: { id: string; name: string; createdAt: Date; lastUsedAt: Date | null }): PasskeyInfo {
  return { id: k.id, name: k.name, createdAt: k.createdAt.toISOString(), lastUsedAt: k.lastUsedAt?.toISOString() ?? null };
}

export function passkeyCeremonies(db: Db, rp: RelyingParty) {
  async function remember(challenge: string, purpose: ChallengePurpose, userId: string | null) {
    await db.delete(webauthnChallenges).where(lt(webauthnChallenges.expiresAt, sql`now()`));
    // One open challenge per account and purpose: asking again replaces it, so none pile up.
    if (userId !== null) {
      await db.delete(webauthnChallenges).where(and(eq(webauthnChallenges.userId, userId), eq(webauthnChallenges.purpose, purpose)));
    }
    await db
      .insert(webauthnChallenges)
      .values({ challenge, purpose, userId, expiresAt: new Date(Date.now() + WEBAUTHN_CHALLENGE_TTL_S * 1000) });
  }

  /** Takes the challenge the answer signed, once, when it was issued for this purpose and account. */
  async function take(response: { response: { clientDataJSON: string } }, purpose: ChallengePurpose, userId: string | null) {
    const challenge = challengeOf(response);
    if (!challenge) return undefined;
    const [row] = await db
      .delete(webauthnChallenges)
      .where(
        and(
          eq(webauthnChallenges.challenge, challenge),
          eq(webauthnChallenges.purpose, purpose),
          userId === null ? sql`${webauthnChallenges.userId} is null` : eq(webauthnChallenges.userId, userId),
          sql`${webauthnChallenges.expiresAt} > now()`,
        ),
      )
      .returning({ challenge: webauthnChallenges.challenge });
    return row?.challenge;
  }

  const ofUser = (userId: string) => db.select().from(passkeys).where(eq(passkeys.userId, userId)).orderBy(asc(passkeys.createdAt));

  return {
    ofUser,

    /** Options to create a discoverable passkey for the account; its existing ones are excluded. */
    async registrationOptions(user: { id: string; username: string }): Promise<PublicKeyCredentialCreationOptionsJSON> {
      const existing = await ofUser(user.id);
      const options = await webauthn().generateRegistrationOptions({
        rpName: 'Parley',
        rpID: rp.rpID,
        userName: user.username,
        userID: new TextEncoder().encode(user.id),
        attestationType: 'none',
        excludeCredentials: existing.map((p) => ({ id: p.credentialId, transports: p.transports as AuthenticatorTransport[] })),
        authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
        timeout: WEBAUTHN_CHALLENGE_TTL_S * 1000,
      });
      await remember(options.challenge, 'register', user.id);
      return options;
    },

    /** Verifies a new passkey and keeps it; undefined when the answer does not hold. */
    async register(userId: string, name: string, response: RegistrationResponseJSON): Promise<Passkey | undefined | 'challenge'> {
      const challenge = await take(response, 'register', userId);
      if (!challenge) return 'challenge';
      const result = await webauthn()
        .verifyRegistrationResponse({
          response,
          expectedChallenge: challenge,
          expectedOrigin: rp.origin,
          expectedRPID: rp.rpID,
          requireUserVerification: false,
        })
        .catch(() => undefined);
      if (!result?.verified) return undefined;
      const { credential } = result.registrationInfo;
      const [row] = await db
        .insert(passkeys)
        .values({
          userId,
          credentialId: credential.id,
          publicKey: Buffer.from(credential.publicKey),
          counter: credential.counter,
          transports: credential.transports ?? [],
          name,
        })
        .onConflictDoNothing()
        .returning();
      return row;
    },

    /**
     * Options to sign in: with no account (a discoverable passkey picks it; conditional UI) or for
     * one account's passkeys (the second factor).
     */
    async authenticationOptions(purpose: 'login' | 'second_factor', userId: string | null): Promise<PublicKeyCredentialRequestOptionsJSON> {
      const allow = userId ? await ofUser(userId) : [];
      const options = await webauthn().generateAuthenticationOptions({
        rpID: rp.rpID,
        userVerification: purpose === 'login' ? 'required' : 'preferred',
        timeout: WEBAUTHN_CHALLENGE_TTL_S * 1000,
        ...(userId
          ? { allowCredentials: allow.map((p) => ({ id: p.credentialId, transports: p.transports as AuthenticatorTransport[] })) }
          : {}),
      });
      await remember(options.challenge, purpose, userId);
      return options;
    },

    /**
     * The passkey an answer proves, once: its challenge taken, its signature and counter checked,
     * and for a sign-in without a password the user verified (the passkey is then both factors).
     */
    async authenticate(
      response: AuthenticationResponseJSON,
      purpose: 'login' | 'second_factor',
      userId: string | null,
    ): Promise<Passkey | 'challenge' | 'unknown' | undefined> {
      const challenge = await take(response, purpose, userId);
      if (!challenge) return 'challenge';
      const [key] = await db.select().from(passkeys).where(eq(passkeys.credentialId, response.id)).limit(1);
      if (!key || (userId !== null && key.userId !== userId)) return 'unknown';
      const result = await webauthn()
        .verifyAuthenticationResponse({
          response,
          expectedChallenge: challenge,
          expectedOrigin: rp.origin,
          expectedRPID: rp.rpID,
          credential: { id: key.credentialId, publicKey: new Uint8Array(key.publicKey), counter: key.counter },
          requireUserVerification: purpose === 'login',
        })
        .catch(() => undefined);
      if (!result?.verified) return undefined;
      await db
        .update(passkeys)
        .set({ counter: result.authenticationInfo.newCounter, lastUsedAt: sql`now()` })
        .where(eq(passkeys.id, key.id));
      return key;
    },

    /** Renames one of the account's passkeys; undefined when it has none of that id. */
    async rename(userId: string, id: string, name: string): Promise<PasskeyInfo | undefined> {
      const [key] = await db
        .update(passkeys)
        .set({ name })
        .where(and(eq(passkeys.id, id), eq(passkeys.userId, userId)))
        .returning();
      return key && passkeyInfo(key);
    },

    async remove(userId: string, id: string): Promise<boolean> {
      const gone = await db
        .delete(passkeys)
        .where(and(eq(passkeys.id, id), eq(passkeys.userId, userId)))
        .returning({ id: passkeys.id });
      return gone.length > 0;
    },
  };
}

export type PasskeyCeremonies = ReturnType<typeof passkeyCeremonies>;
