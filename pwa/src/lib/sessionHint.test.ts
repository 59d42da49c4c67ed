import { afterEach, describe, expect, it, vi } from 'vitest';
import { hadSessionHere, rememberSession, shouldRestoreAtStart } from './sessionHint';

function fakeLocalStorage() {
  const data = new Map<string, string>();
  vi.stubGlobal('window', {
    localStorage: {
      getItem: (k: string) => data.get(k) ?? null,
      setItem: (k: string, v: string) => data.set(k, v),
      removeItem: (k: string) => data.delete(k),
    },
  });
  return data;
}

afterEach(() => vi.unstubAllGlobals());

describe('the session hint', () => {
  it('lets public start pages skip the refresh for a browser that never signed in', () => {
    fakeLocalStorage();
    expect(shouldRestoreAtStart('/')).toBe(false);
    expect(shouldRestoreAtStart('/login')).toBe(false);
    // Pages that show the user, and Google's landing pages, always ask.
    expect(shouldRestoreAtStart('/dashboard')).toBe(true);
    expect(shouldRestoreAtStart('/confirm-account')).toBe(true);
    expect(shouldRestoreAtStart('/textchat')).toBe(true);
  });

  it('asks everywhere once a session was seen, and stops after sign-out', () => {
    const data = fakeLocalStorage();
    rememberSession(true);
    expect(shouldRestoreAtStart('/')).toBe(true);
    expect([...data.values()]).toEqual(['1']); // a flag, never a token
    rememberSession(false);
    expect(shouldRestoreAtStart('/')).toBe(false);
  });

  it('tells whether this browser had a session, whatever the page (a private window had none)', () => {
    fakeLocalStorage();
    expect(hadSessionHere()).toBe(false);
    rememberSession(true);
    expect(hadSessionHere()).toBe(true);
  });

  it('asks when storage is unavailable', () => {
    vi.stubGlobal('window', {});
    expect(shouldRestoreAtStart('/')).toBe(true);
  });
});
