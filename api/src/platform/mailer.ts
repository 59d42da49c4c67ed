import type * as Nodemailer from 'nodemailer';
import { mkdir, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { Transporter } from 'nodemailer';
import { lazyRequire } from './lazyRequire.ts';
import type { Config } from './config.ts';
import type { Logger } from './logger.ts';

/** One message: always a plain-text and an HTML part. */
export type Mail = { to: string; subject: string; text: string; html: string };

/**
 * How mail leaves: over SMTP (`SMTP_URL`), into a folder under DATA_DIR (the embedded default
 * without SMTP, so a person trying Parley locally can open the link), or not at all.
 */
export type MailDelivery = 'smtp' | 'folder' | 'none';

export type Mailer = {
  delivery: MailDelivery;
  /** The folder mail is written to, in `folder` delivery. */
  folder?: string;
  send(mail: Mail): Promise<void>;
  close(): void;
};

/** nodemailer, loaded with the first message a process sends. */
const nodemailer = () => lazyRequire('nodemailer') as typeof Nodemailer;

export function createMailer(cfg: Config, log: Logger): Mailer {
  const from = cfg.MAIL_FROM;
  if (cfg.SMTP_URL) {
    const url = cfg.SMTP_URL;
    let transport: Transporter | undefined;
    return {
      delivery: 'smtp',
      async send(mail) {
        transport ??= nodemailer().createTransport(url);
        await transport.sendMail({ from, ...mail });
      },
      close: () => transport?.close(),
    };
  }
  if (!cfg.DATABASE_URL) {
    const folder = path.resolve(cfg.DATA_DIR, 'mail');
    // Builds the whole message (headers, both parts) as SMTP would carry it, without sending it.
    let transport: Transporter | undefined;
    log.info({ folder }, 'email is not configured (SMTP_URL): outgoing mail is written to this folder as .eml files');
    return {
      delivery: 'folder',
      folder,
      async send(mail) {
        transport ??= nodemailer().createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
        const info = await transport.sendMail({ from, ...mail });
        await mkdir(folder, { recursive: true, mode: 0o700 });
        const file = path.join(folder, `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.eml`);
        await writeFile(file, info.message as Buffer, { mode: 0o600 });
        log.info({ file }, 'email written to a file (SMTP_URL is not set)');
      },
      close: () => undefined,
    };
  }
  log.warn('email is not configured (SMTP_URL): verification, password reset and sign-in alerts by email are off');
  return {
    delivery: 'none',
    async send() {
      throw new Error('email is not configured');
    },
    close: () => undefined,
  };
}
