import type { Mail } from '../../platform/mailer.ts';

/** The brand accent of pwa/src/styles/tokens.css (--color-accent), as mail clients read colours. */
const ACCENT = '#432dd7';

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

type Parts = { to: string; subject: string; heading: string; lines: string[]; action?: { label: string; url: string }; footer: string };

/**
 * One layout for every message: Parley's name and accent, the text, one button with its link
 * also written out, and no images, pixels or tracked links.
 */
function compose({ to, subject, heading, lines, action, footer }: Parts): Mail {
  const text = [
    heading,
    '',
    ...lines.flatMap((l) => [l, '']),
    ...(action ? [`${action.label}: ${action.url}`, ''] : []),
    footer,
    '',
    '— Parley',
  ].join('\n');
  const paragraphs = lines.map((l) => `<p style="margin:0 0 16px">${escapeHtml(l)}</p>`).join('');
  const button = action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(action.url)}" style="background:${ACCENT};color:#ffffff;padding:12px 20px;border-radius:8px;text-decoration:none;font-weight:600;display:inline-block">${escapeHtml(action.label)}</a></p>
<p style="margin:0 0 16px;font-size:13px;color:#475569">Or open this address: <a href="${escapeHtml(action.url)}" style="color:${ACCENT};word-break:break-all">${escapeHtml(action.url)}</a></p>`
    : '';
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;background:#f8fafc;font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#0f172a">
<div style="max-width:520px;margin:0 auto;padding:24px">
<p style="margin:0 0 16px;font-size:22px;font-weight:800;color:${ACCENT}">Parley</p>
<div style="background:#ffffff;border:1px solid #e2e8f0;border-radius:12px;padding:24px;font-size:15px;line-height:1.5">
<h1 style="margin:0 0 16px;font-size:20px">${escapeHtml(heading)}</h1>
${paragraphs}${button}
<p style="margin:16px 0 0;font-size:13px;color:#475569">${escapeHtml(footer)}</p>
</div></div></body></html>`;
  return { to, subject, text, html };
}

export function verifyEmailMail(to: string, username: string, url: string): Mail {
  return compose({
    to,
    subject: 'Confirm your email for Parley',
    heading: 'Confirm your email',
    lines: [
      `Hi ${username}, confirm that this address is yours to use it for password resets and sign-in alerts.`,
      'The link works once, for 24 hours.',
    ],
    action: { label: 'Confirm email', url },
    footer: 'If you did not add this address to a Parley account, ignore this email: nothing changes.',
  });
}

export function resetPasswordMail(to: string, username: string, url: string): Mail {
  return compose({
    to,
    subject: 'Reset your Parley password',
    heading: 'Reset your password',
    lines: [
      `Someone asked to reset the password of the Parley account ${username}.`,
      'The link works once, for one hour. Resetting signs out every device.',
    ],
    action: { label: 'Choose a new password', url },
    footer: 'If it was not you, ignore this email: your password stays as it is.',
  });
}

export function emailChangedMail(to: string, username: string, change: 'replaced' | 'removed', signInUrl: string): Mail {
  return compose({
    to,
    subject: 'The email of your Parley account is changing',
    heading: change === 'removed' ? 'Your email was removed' : 'Your email is being changed',
    lines: [
      change === 'removed'
        ? `This address was removed from the Parley account ${username}.`
        : `Someone signed in to the Parley account ${username} asked to use another email address instead of this one.`,
      'If it was you, there is nothing to do.',
    ],
    action: { label: 'Review your account', url: signInUrl },
    footer: 'If it was not you, sign in, change your password and sign out your other devices in Settings.',
  });
}

export function newSignInMail(to: string, username: string, device: string, settingsUrl: string): Mail {
  return compose({
    to,
    subject: 'New sign-in to your Parley account',
    heading: 'A new device signed in',
    lines: [`The Parley account ${username} was just signed in to from ${device}.`, 'If it was you, there is nothing to do.'],
    action: { label: 'See your devices', url: settingsUrl },
    footer: 'If it was not you, sign that device out in Settings and change your password.',
  });
}
