import { z } from 'zod';
import { emailSchema, passwordSchema, proofSchema, usernameSchema } from './auth.ts';
export { emailSchema };
import { text } from './text.ts';

/** A verification link works this long after it was sent. */
export const EMAIL_VERIFY_TTL_S = 24 * 60 * 60;
/** A password reset link works this long after it was sent. */
export const PASSWORD_RESET_TTL_S = 60 * 60;
/** Reset requests per hour, per requesting address, per name or address asked about, and per account. */
export const RESETS_PER_ADDRESS_HOUR = 10;
export const RESETS_PER_LOGIN_HOUR = 3;
export const RESETS_PER_ACCOUNT_HOUR = 3;
/** Verification emails an account may ask for in an hour. */
export const EMAIL_CHANGES_PER_HOUR = 5;
/** A username may change once in this many days; the old one stays reserved for its owner as long. */
export const USERNAME_CHANGE_DAYS = 30;
export const USERNAME_HELD_DAYS = 30;

/** The token of a link, as the page reads it from the address. */
export const linkTokenSchema = z
  .string({ error: 'The link is incomplete' })
  .regex(/^[A-Za-z0-9_-]{43}$/, 'The link is incomplete or damaged');

/** PUT /api/account/email */
export const setEmailSchema = z.object({ email: emailSchema }).strict();
/** POST /api/auth/email/verify */
export const verifyEmailSchema = z.object({ token: linkTokenSchema }).strict();

/** POST /api/auth/password-reset: a username or an email address; the answer is the same either way. */
export const resetRequestSchema = z
  .object({
    login: text({ error: 'Enter your username or email' }).trim().min(1, 'Enter your username or email').max(254),
    altcha: proofSchema,
  })
  .strict();
export type ResetRequestBody = z.infer<typeof resetRequestSchema>;

/** POST /api/auth/password-reset/confirm: the emailed link's token (a recovery code resets at /api/auth/recover). */
export const resetConfirmSchema = z.object({ token: linkTokenSchema, password: passwordSchema }).strict();
export type ResetConfirmBody = z.infer<typeof resetConfirmSchema>;

/** POST /api/account/username */
export const changeUsernameSchema = z.object({ username: usernameSchema }).strict();

export const signInIdSchema = z.uuid({ error: 'Not a sign-in id' });

/** The one answer to every reset request, whether or not the name or address exists. */
export const RESET_REQUESTED =
  'If that name or address belongs to an account with a verified email, a reset link is on its way. It works for one hour.';

/** GET /api/account/email: the owner's own address, never anyone else's. */
export type AccountEmail = {
  email: string | null;
  verified: boolean;
  /** An address given and waiting for its link to be opened. */
  pending: string | null;
  /** Whether this server can send email at all. */
  configured: boolean;
};

/** GET /api/account/sign-ins */
export type SignInView = {
  id: string;
  /** "Firefox on Android", from the browser's user agent. */
  device: string;
  /** The country (ISO code) of the address it signed in from, when known: an approximate place, never a city. */
  country?: string;
  firstSeen: string;
  lastSeen: string;
  /** The sign-in this request comes from. */
  current: boolean;
};

/** GET /api/account/username */
export type UsernameStatus = { username: string; nextChangeAt: string | null };

export const ACCOUNT_ERR = {
  linkInvalid: 'This link is not valid any more: it was used, it expired, or it is for something else. Ask for a new one.',
  tooManyResets: 'Too many reset requests. Wait an hour and try again.',
  tooManyEmails: 'Too many emails asked for. Wait an hour and try again.',
  tooManyLinks: 'Too many tries from this network. Wait an hour and try again.',
  emailNotConfigured: 'This server cannot send email, so email features are off.',
  usernameTooSoon: 'You can change your username once a month.',
  signInNotFound: 'That sign-in is not one of yours, or it already ended.',
} as const;
