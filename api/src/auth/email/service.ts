import { and, eq, isNotNull, sql } from 'drizzle-orm';
import {
  ACCOUNT_ERR,
  EMAIL_CHANGES_PER_HOUR,
  EMAIL_VERIFY_TTL_S,
  PASSWORD_RESET_TTL_S,
  RESETS_PER_ACCOUNT_HOUR,
  RESETS_PER_ADDRESS_HOUR,
  RESETS_PER_LOGIN_HOUR,
  type AccountEmail,
  type ResetConfirmBody,
} from '@parley/contract/accounts';
import type { AppDeps } from '../../deps.ts';
import { findAccountById, findAccountByUsername, type Account } from '../../db/accounts.ts';
import { users } from '../../db/schema.ts';
import { publicUrl } from '../../platform/config.ts';
import { DomainError } from '../../platform/errors.ts';
import type { Mail, Mailer } from '../../platform/mailer.ts';
import { accountLocale } from '../../platform/i18n/i18n.ts';
import type { UiLocale } from '@parley/contract/locales';
import { hashPassword } from '../passwords.ts';
import type { ProofOfWork } from '../proofOfWork.ts';
import { endSignInsOf } from '../devices/signIns.ts';
import { consumeAccountToken, issueAccountToken, voidAccountTokens } from './accountTokens.ts';
import { emailChangedMail, newSignInMail, resetPasswordMail, verifyEmailMail } from './messages.ts';

/** Accounts with a verified address a reset may reach: one person may hold a few. */
const ACCOUNTS_PER_ADDRESS = 5;

const linkInvalid = () => new DomainError('invalid', ACCOUNT_ERR.linkInvalid, 'link_invalid');
const notConfigured = () => new DomainError('unavailable', ACCOUNT_ERR.emailNotConfigured, 'email_not_configured');
const tooMany = (message: string, retryAfterS: number) => new DomainError('too_many', message, 'rate_limited', retryAfterS);
const normalised = (email: string) => email.trim().toLowerCase();

type Deps = Pick<AppDeps, 'cfg' | 'db' | 'limiters' | 'log' | 'revocations' | 'realtime' | 'background'>;

/**
 * An account's optional email and what it is for: verification by link, password reset by link
 * (or by a recovery code, when that part is wired in), notices to the old address on a change,
 * and sign-in alerts.
 */
export function accountEmail(deps: Deps, mailer: Mailer, proof: ProofOfWork) {
  const { db, limiters, log } = deps;
  const configured = mailer.delivery !== 'none';
  const base = publicUrl(deps.cfg);
  const resetsByAddress = limiters.create({
    keyPrefix: 'reset-addr',
    points: RESETS_PER_ADDRESS_HOUR,
    durationSeconds: 3600,
    byAddress: true,
  });
  const resetsByLogin = limiters.create({ keyPrefix: 'reset-login', points: RESETS_PER_LOGIN_HOUR, durationSeconds: 3600 });
  const resetsByAccount = limiters.create({ keyPrefix: 'reset-account', points: RESETS_PER_ACCOUNT_HOUR, durationSeconds: 3600 });
  const emailsByAccount = limiters.create({ keyPrefix: 'email-change', points: EMAIL_CHANGES_PER_HOUR, durationSeconds: 3600 });
  const emailsToAddress = limiters.create({ keyPrefix: 'email-to', points: EMAIL_CHANGES_PER_HOUR, durationSeconds: 3600 });
  // Links opened and recovery codes tried, per address: links cannot be guessed, but codes are short.
  const confirmsByAddress = limiters.create({ keyPrefix: 'link-use-addr', points: 60, durationSeconds: 3600, byAddress: true });

  /** Sends without holding up the answer; a failure is logged (never the link in it). */
  const sendLater = (mail: Mail, what: string) => {
    mailer.send(mail).catch((err: unknown) => log.error({ err, what }, 'sending an email failed'));
  };

  async function take(limiter: typeof resetsByAddress, key: string, message: string) {
    const t = await limiter.take(key);
    if (!t.ok) throw tooMany(message, t.retryAfterS);
  }

  async function accountsToReset(login: string): Promise<Account[]> {
    if (login.includes('@')) {
      return db
        .select()
        .from(users)
        .where(and(sql`lower(${users.email}) = ${normalised(login)}`, isNotNull(users.emailVerifiedAt), sql`${users.deletedAt} is null`))
        .limit(ACCOUNTS_PER_ADDRESS);
    }
    const account = await findAccountByUsername(db, login);
    return account && !account.deletedAt && account.email && account.emailVerifiedAt ? [account] : [];
  }

  /** Looks the accounts up and mails each a link: the same work whether or not any exists, after the answer went. */
  async function sendResets(login: string, asked: UiLocale | null) {
    for (const account of await accountsToReset(login)) {
      if (!(await resetsByAccount.take(account.id)).ok) continue;
      const token = await issueAccountToken(db, account.id, 'reset_password', PASSWORD_RESET_TTL_S);
      sendLater(
        resetPasswordMail(
          account.email!,
          accountLocale(account.settings) ?? asked,
          account.username,
          `${base}/reset-password?token=${token}`,
        ),
        'password reset',
      );
    }
  }

  return {
    configured,

    async status(userId: string): Promise<AccountEmail> {
      const a = await findAccountById(db, userId);
      return {
        email: a?.emailVerifiedAt ? a.email : null,
        verified: Boolean(a?.emailVerifiedAt),
        pending: a?.pendingEmail ?? null,
        configured,
      };
    },

    /**
     * Starts using an address: it is kept as pending and sent a link (24 h); the old verified
     * address, if any, is told at once, so a stolen session cannot quietly move the account.
     * Mail is written in the account's language, else in the one the request asked for (`asked`).
     */
    async setEmail(userId: string, email: string, asked: UiLocale | null = null): Promise<AccountEmail> {
      if (!configured) throw notConfigured();
      const a = await findAccountById(db, userId);
      if (!a || a.deletedAt) throw new DomainError('unauthenticated', 'Your account no longer exists.', 'unauthorized');
      await take(emailsByAccount, userId, ACCOUNT_ERR.tooManyEmails);
      await take(emailsToAddress, normalised(email), ACCOUNT_ERR.tooManyEmails);
      await db.update(users).set({ pendingEmail: email }).where(eq(users.id, userId));
      const token = await issueAccountToken(db, userId, 'verify_email', EMAIL_VERIFY_TTL_S, email);
      const locale = accountLocale(a.settings) ?? asked;
      sendLater(verifyEmailMail(email, locale, a.username, `${base}/verify-email?token=${token}`), 'email verification');
      if (a.email && a.emailVerifiedAt && normalised(a.email) !== normalised(email)) {
        sendLater(emailChangedMail(a.email, locale, a.username, 'replaced', `${base}/login`), 'email change notice');
      }
      return this.status(userId);
    },

    /** Removes the address (verified and pending); the old verified one is told. */
    async removeEmail(userId: string, asked: UiLocale | null = null): Promise<AccountEmail> {
      const [before] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
      await db.update(users).set({ email: null, emailVerifiedAt: null, pendingEmail: null }).where(eq(users.id, userId));
      await voidAccountTokens(db, userId, 'verify_email');
      await voidAccountTokens(db, userId, 'reset_password');
      if (before?.email && before.emailVerifiedAt && configured) {
        sendLater(
          emailChangedMail(before.email, accountLocale(before.settings) ?? asked, before.username, 'removed', `${base}/login`),
          'email removal notice',
        );
      }
      return this.status(userId);
    },

    /** The link of a verification email: the address it was sent to becomes the account's. */
    async verify(token: string, address: string): Promise<void> {
      await take(confirmsByAddress, address, ACCOUNT_ERR.tooManyLinks);
      const used = await consumeAccountToken(db, token, 'verify_email');
      if (!used?.email) throw linkInvalid();
      await db
        .update(users)
        .set({
          email: used.email,
          emailVerifiedAt: sql`now()`,
          pendingEmail: sql`case when lower(${users.pendingEmail}) = ${normalised(used.email)} then null else ${users.pendingEmail} end`,
        })
        .where(eq(users.id, used.userId));
    },

    /**
     * POST /api/auth/password-reset. Limited per requesting address and per name or address
     * asked about, after a proof of work; both are counted the same whether or not an account
     * exists. Answers the rest of the work (the look-up, the per-account limit and the mail),
     * for the caller to start once the answer has gone: the answer's status, body and time
     * cannot tell whether anything was found.
     */
    async requestReset(login: string, altcha: string | undefined, address: string, asked: UiLocale | null = null): Promise<() => void> {
      await proof.verify(altcha);
      await take(resetsByAddress, address, ACCOUNT_ERR.tooManyResets);
      await take(resetsByLogin, normalised(login), ACCOUNT_ERR.tooManyResets);
      return () => {
        deps.background.run(() => sendResets(login, asked)).catch((err: unknown) => log.error({ err }, 'a password reset request failed'));
      };
    },

    /**
     * POST /api/auth/password-reset/confirm: the new password is set from a reset link, and every
     * sign-in of the account ends (a recovery code does the same at /api/auth/recover).
     */
    async confirmReset(body: ResetConfirmBody, address: string): Promise<void> {
      await take(confirmsByAddress, address, ACCOUNT_ERR.tooManyLinks);
      const used = await consumeAccountToken(db, body.token, 'reset_password');
      if (!used) throw linkInvalid();
      const { userId } = used;
      await db
        .update(users)
        .set({ passwordHash: await hashPassword(body.password) })
        .where(eq(users.id, userId));
      await voidAccountTokens(db, userId, 'reset_password');
      await endSignInsOf(deps, userId, {}, 'password_reset');
    },

    /** A sign-in from a browser new to the account: its verified address hears of it. */
    alertNewSignIn(account: Account, device: string) {
      if (!configured || !account.email || !account.emailVerifiedAt) return;
      sendLater(
        newSignInMail(account.email, accountLocale(account.settings), account.username, device, `${base}/settingboard`),
        'new sign-in alert',
      );
    },
  };
}

export type AccountEmailService = ReturnType<typeof accountEmail>;
