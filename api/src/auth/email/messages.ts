import type { UiLocale } from '@parley/contract/locales';
import type { Mail } from '../../platform/mailer.ts';
import { render, rightToLeft, words, type Words } from '../../platform/i18n/i18n.ts';

/** The brand accent of pwa/src/styles/tokens.css (--color-accent), as mail clients read colours. */
const ACCENT = '#432dd7';

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

type Parts = { to: string; subject: Words; heading: Words; lines: Words[]; action?: { label: Words; url: string }; footer: Words };

const OR_OPEN = /*i18n*/ { id: 'email.orOpen', message: 'Or open this address:' };
const SIGNATURE = /*i18n*/ { id: 'email.signature', message: '— Parley' };

/**
 * One layout for every message, in the recipient's language: Parley's name and accent, the text,
 * one button with its link also written out, and no images, pixels or tracked links.
 */
function compose(locale: UiLocale | null, parts: Parts): Mail {
  const say = (w: Words) => render(locale, w);
  const subject = say(parts.subject);
  const heading = say(parts.heading);
  const lines = parts.lines.map(say);
  const footer = say(parts.footer);
  const action = parts.action && { label: say(parts.action.label), url: parts.action.url };
  const orOpen = say(words(OR_OPEN));
  const text = [
    heading,
    '',
    ...lines.flatMap((l) => [l, '']),
    ...(action ? [`${action.label}: ${action.url}`, ''] : []),
    footer,
    '',
    say(words(SIGNATURE)),
  ].join('\n');
  const paragraphs = lines.map((l) => `<p style="margin:0 0 16px">${escapeHtml(l)}</p>`).join('');
  const button = action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(action.url)}" style="background:${ACCENT};color:#ffffff;padding:12px 20px;border-radius:8px;text-decoration:none;font-weight:600;display:inline-block">${escapeHtml(action.label)}</a></p>
<p style="margin:0 0 16px;font-size:13px;color:#475569">${escapeHtml(orOpen)} <a href="${escapeHtml(action.url)}" style="color:${ACCENT};word-break:break-all" dir="ltr">${escapeHtml(action.url)}</a></p>`
    : '';
  const html = `<!doctype html>
<html lang="${locale ?? 'en'}" dir="${rightToLeft(locale) ? 'rtl' : 'ltr'}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;background:#f8fafc;font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#0f172a">
<div style="max-width:520px;margin:0 auto;padding:24px">
<p style="margin:0 0 16px;font-size:22px;font-weight:800;color:${ACCENT}">Parley</p>
<div style="background:#ffffff;border:1px solid #e2e8f0;border-radius:12px;padding:24px;font-size:15px;line-height:1.5">
<h1 style="margin:0 0 16px;font-size:20px">${escapeHtml(heading)}</h1>
${paragraphs}${button}
<p style="margin:16px 0 0;font-size:13px;color:#475569">${escapeHtml(footer)}</p>
</div></div></body></html>`;
  return { to: parts.to, subject, text, html };
}

export function verifyEmailMail(to: string, locale: UiLocale | null, username: string, url: string): Mail {
  return compose(locale, {
    to,
    subject: words(/*i18n*/ { id: 'email.verify.subject', message: 'Confirm your email for Parley' }),
    heading: words(/*i18n*/ { id: 'email.verify.heading', message: 'Confirm your email' }),
    lines: [
      words(
        /*i18n*/ {
          id: 'email.verify.intro',
          message: 'Hi {username}, confirm that this address is yours to use it for password resets and sign-in alerts.',
        },
        { username },
      ),
      words(/*i18n*/ { id: 'email.verify.validity', message: 'The link works once, for 24 hours.' }),
    ],
    action: { label: words(/*i18n*/ { id: 'email.verify.action', message: 'Confirm email' }), url },
    footer: words(
      /*i18n*/ {
        id: 'email.verify.footer',
        message: 'If you did not add this address to a Parley account, ignore this email: nothing changes.',
      },
    ),
  });
}

export function resetPasswordMail(to: string, locale: UiLocale | null, username: string, url: string): Mail {
  return compose(locale, {
    to,
    subject: words(/*i18n*/ { id: 'email.reset.subject', message: 'Reset your Parley password' }),
    heading: words(/*i18n*/ { id: 'email.reset.heading', message: 'Reset your password' }),
    lines: [
      words(
        /*i18n*/ { id: 'email.reset.intro', message: 'Someone asked to reset the password of the Parley account {username}.' },
        { username },
      ),
      words(/*i18n*/ { id: 'email.reset.validity', message: 'The link works once, for one hour. Resetting signs out every device.' }),
    ],
    action: { label: words(/*i18n*/ { id: 'email.reset.action', message: 'Choose a new password' }), url },
    footer: words(/*i18n*/ { id: 'email.reset.footer', message: 'If it was not you, ignore this email: your password stays as it is.' }),
  });
}

export function emailChangedMail(
  to: string,
  locale: UiLocale | null,
  username: string,
  change: 'replaced' | 'removed',
  signInUrl: string,
): Mail {
  return compose(locale, {
    to,
    subject: words(/*i18n*/ { id: 'email.changed.subject', message: 'The email of your Parley account is changing' }),
    heading:
      change === 'removed'
        ? words(/*i18n*/ { id: 'email.changed.headingRemoved', message: 'Your email was removed' })
        : words(/*i18n*/ { id: 'email.changed.headingReplaced', message: 'Your email is being changed' }),
    lines: [
      change === 'removed'
        ? words(
            /*i18n*/ { id: 'email.changed.removed', message: 'This address was removed from the Parley account {username}.' },
            { username },
          )
        : words(
            /*i18n*/ {
              id: 'email.changed.replaced',
              message: 'Someone signed in to the Parley account {username} asked to use another email address instead of this one.',
            },
            { username },
          ),
      words(/*i18n*/ { id: 'email.ifYou', message: 'If it was you, there is nothing to do.' }),
    ],
    action: { label: words(/*i18n*/ { id: 'email.changed.action', message: 'Review your account' }), url: signInUrl },
    footer: words(
      /*i18n*/ {
        id: 'email.changed.footer',
        message: 'If it was not you, sign in, change your password and sign out your other devices in Settings.',
      },
    ),
  });
}

export function newSignInMail(to: string, locale: UiLocale | null, username: string, device: string, settingsUrl: string): Mail {
  return compose(locale, {
    to,
    subject: words(/*i18n*/ { id: 'email.signIn.subject', message: 'New sign-in to your Parley account' }),
    heading: words(/*i18n*/ { id: 'email.signIn.heading', message: 'A new device signed in' }),
    lines: [
      words(
        /*i18n*/ { id: 'email.signIn.intro', message: 'The Parley account {username} was just signed in to from {device}.' },
        { username, device },
      ),
      words(/*i18n*/ { id: 'email.ifYou', message: 'If it was you, there is nothing to do.' }),
    ],
    action: { label: words(/*i18n*/ { id: 'email.signIn.action', message: 'See your devices' }), url: settingsUrl },
    footer: words(
      /*i18n*/ { id: 'email.signIn.footer', message: 'If it was not you, sign that device out in Settings and change your password.' },
    ),
  });
}
