import { describe, expect, it } from 'vitest';
import { returnToPath } from '../../lib/returnTo';
import { returnToState } from './returnToQuery';

const origin = 'https://parley.example';
const target = (value: string | null) => returnToPath(returnToState(value, origin));

describe('a ?returnTo= of the sign-in page', () => {
  it('opens the page asked for, its query and hash kept', () => {
    expect(target('/payment/success?session_id=cs_test_123')).toBe('/payment/success?session_id=cs_test_123');
    expect(target('/rules#adults')).toBe('/rules#adults');
  });

  it('never leaves the app: other origins, protocol-relative and backslash tricks go to the dashboard', () => {
    for (const value of ['https://evil.example/x', '//evil.example/x', '/\\evil.example/x', 'javascript:alert(1)', '', null])
      expect(target(value)).toBe('/dashboard');
  });

  it('does not loop back to the sign-in or sign-up page', () => {
    expect(target('/login?returnTo=/login')).toBe('/dashboard');
    expect(target('/createaccount')).toBe('/dashboard');
  });
});
