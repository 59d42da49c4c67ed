import { SMTPServer } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';

export type CaughtMail = { to: string; subject: string; text: string; html: string; raw: string };

/**
 * A real SMTP server in the test process: what the server under test sends arrives here over
 * SMTP and is parsed as a mail client would. `SMTP_URL` is its address.
 */
export async function mailCatcher() {
  const mails: CaughtMail[] = [];
  /** Mails already handed to a test by `next`. */
  const taken = new Set<CaughtMail>();
  const waiters = new Set<() => void>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, done) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks);
        simpleParser(raw)
          .then((parsed: ParsedMail) => {
            for (const rcpt of session.envelope.rcptTo) {
              mails.push({
                to: rcpt.address,
                subject: parsed.subject ?? '',
                text: parsed.text ?? '',
                html: typeof parsed.html === 'string' ? parsed.html : '',
                raw: raw.toString('utf8'),
              });
            }
            for (const w of waiters) w();
            done();
          })
          .catch((err: Error) => done(err));
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as { port: number }).port;
  return {
    SMTP_URL: `smtp://127.0.0.1:${port}`,
    mails,
    /** The first mail to `to` matching `subject` not handed out yet, once it is here. */
    async next(to: string, subject: RegExp, timeoutMs = 20_000): Promise<CaughtMail> {
      const find = () => mails.find((m) => !taken.has(m) && m.to === to && subject.test(m.subject));
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no mail to ${to} matching ${String(subject)}`));
        }, timeoutMs);
        function check() {
          const m = find();
          if (!m) return;
          clearTimeout(timer);
          waiters.delete(check);
          taken.add(m);
          resolve(m);
        }
        waiters.add(check);
        check();
      });
    },
    /** Every mail to `to` so far. */
    to: (to: string) => mails.filter((m) => m.to === to),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The token of the first link to `path` in a mail's text. */
export function linkToken(mail: CaughtMail, path: string): string {
  const m = new RegExp(`${path}\\?token=([A-Za-z0-9_-]{43})`).exec(mail.text);
  if (!m) throw new Error(`no ${path} link in: ${mail.text}`);
  return m[1]!;
}
