import { describe, expect, it } from 'vitest';
import { i18n } from '@lingui/core';
import { signupServerErrors, validateSignup, type SignupFormValues } from './signupForm';

// The messages in English: the interface language the tests read.
i18n.loadAndActivate({ locale: 'en', messages: {} });

const good: SignupFormValues = {
  username: 'new_user',
  password: 'correct horse',
  age: '25',
  gender: 'female',
  agree: true,
};

describe('sign-up form', () => {
  it('accepts a complete form and builds the API body', () => {
    expect(validateSignup(good)).toEqual({
      body: { username: 'new_user', password: 'correct horse', age: 25, gender: 'female' },
      errors: null,
    });
  });

  it('puts each problem beside its field', () => {
    const r = validateSignup({ username: 'a!', password: 'short', age: '16', gender: '', agree: false });
    expect(r.errors).toEqual({
      username: expect.stringMatching(/at least 3/),
      password: 'Password must be at least 8 characters',
      age: 'You must be 18 or older to use Parley',
      gender: 'Choose your gender',
      agree: expect.stringMatching(/agree/),
    });
    expect(validateSignup({ ...good, age: '' }).errors).toEqual({ age: 'Age is required' });
    expect(validateSignup({ ...good, username: ' ', password: '' }).errors).toEqual({
      username: 'Username is required',
      password: 'Password is required',
    });
    expect(validateSignup({ ...good, username: 'None' }).errors).toEqual({ username: 'This username is reserved; choose another' });
    expect(validateSignup({ ...good, age: '25.5' }).errors).toEqual({ age: 'Age must be a whole number' });
  });

  it('maps server answers to fields', () => {
    expect(signupServerErrors({ status: 409, data: { message: 'Username is taken', code: 'conflict' } })).toEqual({
      username: 'Username is taken',
    });
    expect(
      signupServerErrors({ status: 400, data: { message: 'x', code: 'validation_failed', fields: { age: 'Age must be at most 99' } } }),
    ).toEqual({
      age: 'Age must be at most 99',
    });
    expect(signupServerErrors({ status: 'FETCH_ERROR', error: 'x' })).toEqual({ form: 'No Server Response' });
    expect(signupServerErrors({ status: 429, data: { message: 'Slow down', code: 'rate_limited' } })).toEqual({ form: 'Slow down' });
  });
});
