import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';
import { createMailer } from './mailer.ts';

const mail = { to: 'ana@example.test', subject: 'Hello', text: 'Plain words', html: '<p>Marked-up words</p>' };

describe('mail delivery without SMTP', () => {
  it('writes each message with both parts to a folder under DATA_DIR on the embedded default', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'parley-mail-'));
    try {
      const mailer = createMailer(loadConfig({ DATA_DIR: dir }), pino({ level: 'silent' }));
      expect(mailer.delivery).toBe('folder');
      await mailer.send(mail);
      const [file] = await readdir(path.join(dir, 'mail'));
      expect(file).toMatch(/\.eml$/);
      const eml = await readFile(path.join(dir, 'mail', file!), 'utf8');
      expect(eml).toMatch(/Content-Type: text\/plain/);
      expect(eml).toMatch(/Content-Type: text\/html/);
      expect(eml).toContain('To: ana@example.test');
      expect((await stat(path.join(dir, 'mail', file!))).mode & 0o077).toBe(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('says email is off on PostgreSQL without SMTP_URL', async () => {
    const mailer = createMailer(loadConfig({ DATABASE_URL: 'postgres://localhost/parley' }), pino({ level: 'silent' }));
    expect(mailer.delivery).toBe('none');
    await expect(mailer.send(mail)).rejects.toThrow(/not configured/);
  });
});
