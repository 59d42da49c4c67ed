/**
 * The interface's languages, each named in itself (a person looking for their language reads its
 * own name), and the choice: the one remembered on this device, else the browser's first language
 * Parley speaks, else English.
 */
export const LOCALES = [
  { code: 'en', name: 'English', dir: 'ltr' },
  { code: 'es', name: 'Español', dir: 'ltr' },
  { code: 'pt-BR', name: 'Português (Brasil)', dir: 'ltr' },
  { code: 'fr', name: 'Français', dir: 'ltr' },
  { code: 'de', name: 'Deutsch', dir: 'ltr' },
  { code: 'tr', name: 'Türkçe', dir: 'ltr' },
  { code: 'id', name: 'Bahasa Indonesia', dir: 'ltr' },
  { code: 'ar', name: 'العربية', dir: 'rtl' },
  { code: 'ja', name: '日本語', dir: 'ltr' },
] as const;

export type ShippedLocale = (typeof LOCALES)[number]['code'];
/** The pseudo-locale (accented, bracketed English) that shows a string left out of the catalogs. */
export const PSEUDO_LOCALE = 'en-XA';
export type Locale = ShippedLocale | typeof PSEUDO_LOCALE;
export const SOURCE_LOCALE: ShippedLocale = 'en';

export function isLocale(value: unknown): value is Locale {
  return value === PSEUDO_LOCALE || LOCALES.some((l) => l.code === value);
}

/** One of the languages Parley ships (not the pseudo-locale): what an account may keep. */
export function isShippedLocale(value: unknown): value is ShippedLocale {
  return LOCALES.some((l) => l.code === value);
}

export function directionOf(locale: Locale): 'ltr' | 'rtl' {
  return LOCALES.find((l) => l.code === locale)?.dir ?? 'ltr';
}

/**
 * The first of the browser's languages Parley speaks: an exact match (pt-BR), else the same
 * language (pt-PT → pt-BR, es-MX → es), else English.
 */
export function negotiateLocale(wanted: readonly string[]): ShippedLocale {
  for (const tag of wanted) {
    const exact = LOCALES.find((l) => l.code.toLowerCase() === tag.toLowerCase());
    if (exact) return exact.code;
    const language = tag.split('-')[0]!.toLowerCase();
    const sameLanguage = LOCALES.find((l) => l.code.split('-')[0]!.toLowerCase() === language);
    if (sameLanguage) return sameLanguage.code;
  }
  return SOURCE_LOCALE;
}

// A preference, not a secret: kept in localStorage so the first render is already in the right language.
const KEY = 'parley-locale';

function storage(): Storage | null {
  try {
    return typeof window !== 'undefined' ? window.localStorage : null;
  } catch {
    return null;
  }
}

/** The language chosen on this device, if any. */
export function readSavedLocale(): Locale | null {
  const saved = storage()?.getItem(KEY);
  return isLocale(saved) ? saved : null;
}

export function saveLocale(locale: Locale) {
  try {
    storage()?.setItem(KEY, locale);
  } catch {
    // Storage refused (quota, private mode): the choice holds for this visit only.
  }
}

/** The language to start in: the one chosen here before, else the browser's. */
export function initialLocale(): Locale {
  return readSavedLocale() ?? negotiateLocale(typeof navigator !== 'undefined' ? (navigator.languages ?? [navigator.language]) : []);
}
