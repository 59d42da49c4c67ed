import { z } from 'zod';
import { text } from './text.ts';
import { DEFAULT_PREMIUM_TIER, GENDERS, MAX_AGE, MIN_AGE } from './constants.ts';

/**
 * Names the app gives a meaning of its own, in any case: `None` is how the specification's guard
 * reads "signed out" (an account called so could never use Parley, nor sign out), `Stranger` and
 * `You` are how a conversation names the partner and the user, `null` and `undefined` are what a
 * missing value prints as, and the rest would pass for Parley's own staff. Nobody signs up under
 * them, and a Google profile never turns into one (api/src/auth/usernames.ts).
 */
export const RESERVED_USERNAMES: readonly string[] = [
  'none',
  'null',
  'undefined',
  'stranger',
  'you',
  'parley',
  'admin',
  'administrator',
  'moderator',
  'support',
  'system',
];
const reserved = new Set(RESERVED_USERNAMES);

/** A name no account may take (RESERVED_USERNAMES), whatever its case. */
export function isReservedUsername(name: string): boolean {
  return reserved.has(name.trim().toLowerCase());
}

export const usernameSchema = text({ error: 'Username is required' })
  .trim()
  .min(3, 'Username must be at least 3 characters')
  .max(20, 'Username must be at most 20 characters')
  .regex(/^[A-Za-z0-9_-]+$/, 'Username may use only letters, digits, _ and -')
  .refine((name) => !isReservedUsername(name), 'This username is reserved; choose another');

export const passwordSchema = text({ error: 'Password is required' })
  .min(8, 'Password must be at least 8 characters')
  .max(200, 'Password must be at most 200 characters');

export const genderSchema = z.enum(GENDERS, { error: 'Gender must be male, female or other' });

export const ageSchema = z
  .number({ error: 'Age must be a whole number' })
  .int('Age must be a whole number')
  .min(MIN_AGE, `You must be ${MIN_AGE} or older to use Parley`)
  .max(MAX_AGE, `Age must be at most ${MAX_AGE}`);

/**
 * The solved proof of work the altcha widget hands the form: base64 JSON of the challenge and its
 * solution. Optional in the schema so that its absence gets the proof-of-work message, not a field error.
 */
export const proofSchema = z.string().max(4000, 'The proof of work is too long').optional();

/**
 * A hash of stable traits of the browser (screen, time zone, languages, graphics renderer…) that
 * the page computes: a signal that two accounts share a device, never proof, as a page may send
 * anything. The server keeps it as an opaque string.
 */
export const fingerprintSchema = z
  .string({ error: 'The device fingerprint must be text' })
  .regex(/^[A-Za-z0-9_-]{16,64}$/, 'The device fingerprint must be 16 to 64 letters, digits, _ or -')
  .optional();

/** An email address (optional on an account: sign-up and chat never need one). */
export const emailSchema = text({ error: 'Email is required' })
  .trim()
  .max(254, 'Email must be at most 254 characters')
  .pipe(z.email({ error: 'Enter an email address like name@example.com' }));

/** Optional at sign-up: an empty field is no address. */
export const optionalEmailSchema = z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), emailSchema.optional());

export const signupSchema = z.object({
  username: usernameSchema,
  password: passwordSchema,
  age: ageSchema,
  gender: genderSchema,
  altcha: proofSchema,
  fingerprint: fingerprintSchema,
  email: optionalEmailSchema,
});
export type SignupBody = z.infer<typeof signupSchema>;

/** GET /api/auth/challenge?fingerprint=…: the page names its device so a linked one gets the harder check at once. */
export const challengeQuerySchema = z.object({
  fingerprint: fingerprintSchema,
  purpose: z.enum(['signup', 'login'], { error: 'purpose is signup or login' }).optional(),
});

/** GET /api/auth/username-check?username=…: is the name free, and a few free names like it. */
export const usernameCheckQuerySchema = z.object({ username: text().max(200) });
export type UsernameCheck = {
  /** The name as checked (trimmed). */
  username: string;
  /** Free to sign up with now (valid, not reserved, not taken in any case). */
  available: boolean;
  /** Why not, when it is not: the rule it breaks, or that it is taken. */
  reason?: string;
  /** Up to USERNAME_SUGGESTIONS free names close to it (empty when it is free). */
  suggestions: string[];
};
export const USERNAME_SUGGESTIONS = 3;

/** Whether the Google button can work here (GET /api/auth/providers): the login screen says so at once. */
export type AuthProviders = {
  google: boolean;
  /** Whether email works here (verification, password reset): over SMTP, or written to a folder on a local trial. */
  email: boolean;
  /** Whether messages can be translated here (the operator set TRANSLATE_URL): the Translate button shows only then. */
  translate: boolean;
};

/** POST /api/auth/google/link: the Google address the page goes to, to link the signed-in account. */
export type GoogleLinkStart = { url: string };

/** Presence is checked separately so a missing field answers the catalogue's 400. */
export const loginSchema = z.object({
  username: text().min(1).max(200),
  password: text().min(1).max(200),
  /** Needed once a name or an address has failed POW_AFTER_LOGIN_FAILURES times. */
  altcha: proofSchema,
  fingerprint: fingerprintSchema,
});
export type LoginBody = z.infer<typeof loginSchema>;

/** verify-info accepts any integer age so an under-18 answer gets the 403 of the age gate. */
export const verifyInfoSchema = z.object({
  age: z
    .number({ error: 'Age must be a whole number' })
    .int('Age must be a whole number')
    .min(0)
    .max(MAX_AGE, `Age must be at most ${MAX_AGE}`),
  gender: genderSchema,
  fingerprint: fingerprintSchema,
});
export type VerifyInfoBody = z.infer<typeof verifyInfoSchema>;

export type AccessTokenAnswer = { accessToken: string };

/** The login token's payload: exactly the fields the product specification names, plus standard claims. */
export const tokenUserSchema = z.object({
  username: z.string(),
  userId: z.string(),
  avatar: z.string(),
  gender: z.enum(GENDERS).nullable(),
  age: z.number().int().nullable(),
  isVerified: z.boolean(),
  premiumUser: z.string().default(DEFAULT_PREMIUM_TIER),
});
export type TokenUser = z.infer<typeof tokenUserSchema>;

export const supportRequestSchema = z.object({
  email: z.email('Enter a valid email address').max(254),
  topic: z.enum(['account', 'safety', 'billing', 'bug', 'other'], { error: 'Choose a topic' }),
  message: text().trim().min(10, 'Tell us a little more (at least 10 characters)').max(5000, 'Message must be at most 5000 characters'),
});
export type SupportRequest = z.infer<typeof supportRequestSchema>;

/** `draining` (with 503): this replica is shutting down and takes no new connections; send them to another. */
export type HealthAnswer = { status: 'ok' | 'draining'; db: 'pglite' | 'postgres'; version: string };

/** Realtime events of the sign-in itself. */
export const authEvents = {
  /** Server → client: this session is about to be disconnected on purpose (signed out elsewhere, banned): SessionEnd. */
  sessionEnd: 'session:end',
} as const;
export type SessionEnd = { reason: string };
