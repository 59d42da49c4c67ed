import { describe, expect, it } from 'vitest';
import { loginErrorMessage } from './loginErrors';

describe('loginErrorMessage', () => {
  it('maps every answer of the catalogue', () => {
    expect(loginErrorMessage({ status: 'FETCH_ERROR', error: 'TypeError: Failed to fetch' })).toBe('No Server Response');
    expect(loginErrorMessage({ status: 'TIMEOUT_ERROR', error: 'AbortError' })).toBe('No Server Response');
    expect(loginErrorMessage({ status: 400, data: { message: 'whatever', code: 'bad_request' } })).toBe('Missing Username or Password');
    expect(loginErrorMessage({ status: 401, data: { message: 'nope' } })).toBe('Unauthorized');
    expect(loginErrorMessage({ status: 429, data: { message: 'Too many sign-in attempts.', code: 'rate_limited' } })).toBe('Too many sign-in attempts.');
    expect(loginErrorMessage({ status: 'PARSING_ERROR', originalStatus: 502, data: '<html>', error: 'x' })).toBe('Login Failed');
  });
});
