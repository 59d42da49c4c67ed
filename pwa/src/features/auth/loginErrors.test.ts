import { describe, expect, it } from 'vitest';
import { i18n } from '@lingui/core';
import { googleSignInMessage, loginErrorMessage } from './loginErrors';

// The messages in English: the interface language the tests read.
i18n.loadAndActivate({ locale: 'en', messages: {} });

describe('loginErrorMessage', () => {
  it('maps every answer of the catalogue', () => {
    expect(loginErrorMessage({ status: 'FETCH_ERROR', error: 'TypeError: Failed to fetch' })).toBe('No Server Response');
    expect(loginErrorMessage({ status: 'TIMEOUT_ERROR', error: 'AbortError' })).toBe('No Server Response');
    expect(loginErrorMessage({ status: 400, data: { message: 'whatever', code: 'bad_request' } })).toBe('Missing Username or Password');
    expect(loginErrorMessage({ status: 401, data: { message: 'nope' } })).toBe('Unauthorized');
    expect(loginErrorMessage({ status: 429, data: { message: 'Too many sign-in attempts.', code: 'rate_limited' } })).toBe(
      'Too many sign-in attempts.',
    );
    expect(loginErrorMessage({ status: 'PARSING_ERROR', originalStatus: 502, data: '<html>', error: 'x' })).toBe('Login Failed');
  });
});

describe('googleSignInMessage', () => {
  it('explains the errors the Google callback redirects with, and nothing else', () => {
    expect(googleSignInMessage('account_suspended')).toBe('This account is suspended. Contact support if you think this is a mistake.');
    expect(googleSignInMessage('google_sign_in_failed')).toMatch(/^Google sign-in did not complete/);
    expect(googleSignInMessage('<script>')).toBe('');
    expect(googleSignInMessage(null)).toBe('');
  });
});
