import { describe, expect, it } from 'vitest';
import { returnToPath } from './returnTo';

describe('returnToPath', () => {
  it('goes back to the page asked for, with its query and hash', () => {
    expect(returnToPath({ from: { pathname: '/groupchat/abc', search: '?x=1', hash: '#m' } })).toBe('/groupchat/abc?x=1#m');
  });
  it('falls back to the dashboard for nothing, other origins and the sign-in pages themselves', () => {
    expect(returnToPath(null)).toBe('/dashboard');
    expect(returnToPath({ from: { pathname: '//evil.example/x' } })).toBe('/dashboard');
    expect(returnToPath({ from: { pathname: 'https://evil.example' } })).toBe('/dashboard');
    expect(returnToPath({ from: { pathname: '/login' } })).toBe('/dashboard');
  });
});
