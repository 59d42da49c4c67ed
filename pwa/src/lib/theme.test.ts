import { afterEach, describe, expect, it, vi } from 'vitest';
import { applyThemeChoice, readThemeChoice, saveThemeChoice } from './theme';

function fakeBrowser() {
  const data = new Map<string, string>();
  const attributes = new Map<string, string>();
  const root = {
    setAttribute: (k: string, v: string) => attributes.set(k, v),
    removeAttribute: (k: string) => attributes.delete(k),
  };
  vi.stubGlobal('window', {
    localStorage: {
      getItem: (k: string) => data.get(k) ?? null,
      setItem: (k: string, v: string) => data.set(k, v),
      removeItem: (k: string) => data.delete(k),
    },
  });
  vi.stubGlobal('document', { documentElement: root });
  return { data, attributes, root: root as unknown as HTMLElement };
}

afterEach(() => vi.unstubAllGlobals());

describe('the theme choice', () => {
  it('follows the system until a theme is chosen', () => {
    const { attributes, root } = fakeBrowser();
    expect(readThemeChoice()).toBe('system');
    applyThemeChoice(readThemeChoice(), root);
    expect(attributes.has('data-theme')).toBe(false);
  });

  it('remembers Light or Dark and sets it on the root; System forgets it', () => {
    const { data, attributes } = fakeBrowser();
    saveThemeChoice('dark');
    expect(readThemeChoice()).toBe('dark');
    expect(attributes.get('data-theme')).toBe('dark');
    saveThemeChoice('light');
    expect(attributes.get('data-theme')).toBe('light');
    saveThemeChoice('system');
    expect(data.size).toBe(0);
    expect(attributes.has('data-theme')).toBe(false);
  });

  it('reads anything else stored under its key as System', () => {
    const { data } = fakeBrowser();
    data.set('parley-theme', 'purple');
    expect(readThemeChoice()).toBe('system');
  });
});
