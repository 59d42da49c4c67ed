import { useCallback, useSyncExternalStore } from 'react';

/** The person's choice in Settings; 'system' follows prefers-color-scheme. */
export type ThemeChoice = 'system' | 'light' | 'dark';
export const THEME_CHOICES: readonly ThemeChoice[] = ['system', 'light', 'dark'];

// A preference, not a secret: kept in localStorage so it applies before the first paint of every page.
const KEY = 'parley-theme';

function storage(): Storage | null {
  try {
    return typeof window !== 'undefined' ? window.localStorage : null;
  } catch {
    return null;
  }
}

export function isThemeChoice(value: unknown): value is ThemeChoice {
  return value === 'system' || value === 'light' || value === 'dark';
}

export function readThemeChoice(): ThemeChoice {
  const saved = storage()?.getItem(KEY);
  return isThemeChoice(saved) ? saved : 'system';
}

/** Sets the root's data-theme (none for 'system': the stylesheet then follows the system setting). */
export function applyThemeChoice(choice: ThemeChoice, root: HTMLElement = document.documentElement) {
  if (choice === 'system') root.removeAttribute('data-theme');
  else root.setAttribute('data-theme', choice);
}

const listeners = new Set<() => void>();

export function saveThemeChoice(choice: ThemeChoice) {
  try {
    if (choice === 'system') storage()?.removeItem(KEY);
    else storage()?.setItem(KEY, choice);
  } catch {
    // Storage refused (quota, private mode): the choice holds for this visit only.
  }
  applyThemeChoice(choice);
  current = choice;
  for (const l of listeners) l();
}

let current: ThemeChoice | null = null;

function subscribe(listener: () => void) {
  listeners.add(listener);
  // Another tab changed it: follow.
  const onStorage = (e: StorageEvent) => {
    if (e.key !== KEY) return;
    current = readThemeChoice();
    applyThemeChoice(current);
    listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

const snapshot = () => (current ??= readThemeChoice());

/** The theme choice and a setter that applies, remembers and tells the other tabs. */
export function useThemeChoice(): [ThemeChoice, (choice: ThemeChoice) => void] {
  const choice = useSyncExternalStore(subscribe, snapshot, () => 'system' as const);
  return [choice, useCallback((c: ThemeChoice) => saveThemeChoice(c), [])];
}
