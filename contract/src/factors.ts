import { z } from 'zod';
import { passwordSchema, proofSchema, fingerprintSchema } from './auth.ts';
import { text } from './text.ts';

/** Recovery codes handed out at once; a new set voids the old. */
export const RECOVERY_CODE_COUNT = 10;
/** How long a sign-in waits for its second factor, and a WebAuthn challenge for its answer. */
export const SECOND_FACTOR_TTL_S = 5 * 60;
export const WEBAUTHN_CHALLENGE_TTL_S = 5 * 60;
/** Second-factor guesses per account (and per address) in SECOND_FACTOR_WINDOW_S. */
export const SECOND_FACTOR_GUESSES = 5;
export const SECOND_FACTOR_WINDOW_S = 15 * 60;
/** Passkeys one account may hold. */
export const MAX_PASSKEYS = 20;

export const FACTOR_ERR = {
  twoFactorRequired: 'Moderators and admins must turn on two-factor sign-in first.',
  wrongCode: 'That code is not right. Check the time on your device and try a new code.',
  secondFactorExpired: 'This sign-in took too long. Sign in again.',
  recoveryFailed: 'That username and recovery code do not match.',
  passkeyFailed: 'The passkey could not be checked. Try again.',
  passkeyUnknown: 'This passkey is not registered with Parley any more.',
  challengeExpired: 'The passkey request expired. Try again.',
  wrongPassword: 'Your current password is not right.',
  proofRequired: 'Confirm it is you: your current password, a code from your authenticator app, a recovery code or a passkey.',
  onlyOneProof: 'Confirm with one thing: your current password or one second factor.',
  noPasskeys: 'Add a passkey first.',
  tooManyPasskeys: `An account may have at most ${MAX_PASSKEYS} passkeys.`,
  lastPasskey: 'This passkey is your only second factor. Add an authenticator app or turn two-factor off first.',
  tooManyGuesses: 'Too many tries. Wait a few minutes and try again.',
} as const;

/** A six-digit authenticator code; spaces people type are dropped. */
export const totpCodeSchema = z
  .string({ error: 'Enter the six-digit code' })
  .transform((s) => s.replace(/\s+/g, ''))
  .pipe(z.string().regex(/^\d{6}$/, 'Enter the six-digit code'));

/** A recovery code as shown (xxxxx-xxxxx); case, spaces and dashes are forgiven. */
export const recoveryCodeSchema = z
  .string({ error: 'Enter a recovery code' })
  .transform((s) => s.replace(/[\s-]+/g, '').toLowerCase())
  .pipe(z.string().regex(/^[a-z2-7]{10}$/, 'A recovery code is ten letters and digits'));

/** A WebAuthn answer as @simplewebauthn/browser hands it; the library checks its inside. */
export const webauthnResponseSchema = z.looseObject({
  id: z.string().min(1).max(1024),
  rawId: z.string().min(1).max(1024),
  type: z.literal('public-key'),
  response: z.looseObject({ clientDataJSON: z.string().min(1).max(4096) }),
});

export const passkeyNameSchema = text({ error: 'Name the passkey' }).trim().min(1, 'Name the passkey').max(60, 'At most 60 characters');

export const registerPasskeySchema = z.strictObject({ name: passkeyNameSchema, response: webauthnResponseSchema });
export const renamePasskeySchema = z.strictObject({ name: passkeyNameSchema });
export const passkeySignInSchema = z.strictObject({ response: webauthnResponseSchema, fingerprint: fingerprintSchema });

/** The second step of a sign-in: the pending token and one factor. */
export const secondFactorSchema = z.union([
  z.strictObject({ pending: z.string().min(1).max(2000), code: totpCodeSchema }),
  z.strictObject({ pending: z.string().min(1).max(2000), recoveryCode: recoveryCodeSchema }),
  z.strictObject({ pending: z.string().min(1).max(2000), passkey: webauthnResponseSchema }),
]);
export const pendingSchema = z.strictObject({ pending: z.string().min(1).max(2000) });

export const confirmTotpSchema = z.strictObject({ code: totpCodeSchema });
/** Turning two-factor off: a current code or a recovery code. */
export const turnOffSchema = z.union([z.strictObject({ code: totpCodeSchema }), z.strictObject({ recoveryCode: recoveryCodeSchema })]);

/**
 * POST /api/auth/password: a new password, proven by the current one or by one second factor (an
 * authenticator code, a recovery code, a passkey). An account with neither a password nor a second
 * factor (made with Google) sets its first password with its session alone.
 */
export const changePasswordSchema = z
  .strictObject({
    newPassword: passwordSchema,
    currentPassword: text({ error: 'Enter your current password' }).min(1, 'Enter your current password').max(200).optional(),
    code: totpCodeSchema.optional(),
    recoveryCode: recoveryCodeSchema.optional(),
    passkey: webauthnResponseSchema.optional(),
  })
  .refine((b) => [b.currentPassword, b.code, b.recoveryCode, b.passkey].filter((p) => p !== undefined).length <= 1, {
    message: FACTOR_ERR.onlyOneProof,
  });
export type ChangePasswordBody = z.infer<typeof changePasswordSchema>;

/** POST /api/auth/recover: a forgotten password reset with a recovery code. */
export const recoverSchema = z.strictObject({
  username: text({ error: 'Enter your username' }).trim().min(1, 'Enter your username').max(200),
  recoveryCode: recoveryCodeSchema,
  password: passwordSchema,
  altcha: proofSchema,
});

export type SecondFactorMethod = 'totp' | 'passkey' | 'recovery';
/** What a correct password answers when the account has two-factor on: no session yet. */
export type SecondFactorAnswer = { secondFactor: { pending: string; methods: SecondFactorMethod[] } };

export type PasskeyInfo = { id: string; name: string; createdAt: string; lastUsedAt: string | null };
/** GET /api/auth/factors: the account's sign-in methods, for Settings. */
export type FactorsOverview = {
  twoFactor: boolean;
  totp: boolean;
  passkeys: PasskeyInfo[];
  recoveryCodesLeft: number;
  hasPassword: boolean;
  /** The linked Google account (its address when Google gave one), or null. */
  google: { email: string | null } | null;
};
export type TotpSetup = { secret: string; otpauthUrl: string; qrSvg: string };
export type RecoveryCodes = { codes: string[] };
