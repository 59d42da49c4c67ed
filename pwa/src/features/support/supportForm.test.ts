import { describe, expect, it } from 'vitest';
import { i18n } from '@lingui/core';
import { supportErrorsFrom, validateSupportDraft } from './supportForm';

// The messages in English: the interface language the tests read.
i18n.loadAndActivate({ locale: 'en', messages: {} });

describe('validateSupportDraft', () => {
  it('accepts a complete draft and trims the email', () => {
    expect(validateSupportDraft({ email: ' ada@example.com ', topic: 'bug', message: 'The video button does nothing.' })).toEqual({
      request: { email: 'ada@example.com', topic: 'bug', message: 'The video button does nothing.' },
    });
  });

  it('gives one message per invalid field, the same words the server uses', () => {
    expect(validateSupportDraft({ email: 'ada', topic: '', message: 'help' })).toEqual({
      errors: {
        email: 'Enter a valid email address',
        topic: 'Choose a topic',
        message: 'Tell us a little more (at least 10 characters)',
      },
    });
  });
});

describe('supportErrorsFrom', () => {
  it('maps the server’s per-field messages onto the form', () => {
    expect(
      supportErrorsFrom({
        status: 400,
        data: { message: 'x', code: 'validation_failed', fields: { email: 'Enter a valid email address' } },
      }),
    ).toEqual({
      email: 'Enter a valid email address',
    });
  });

  it('shows the server’s message for a rate limit', () => {
    expect(supportErrorsFrom({ status: 429, data: { message: 'Please wait a while.', code: 'rate_limited' } })).toEqual({
      form: 'Please wait a while.',
    });
  });

  it('says the server could not be reached on a network failure', () => {
    expect(supportErrorsFrom({ status: 'FETCH_ERROR', error: 'TypeError: Failed to fetch' }).form).toMatch(/^No Server Response/);
  });
});
