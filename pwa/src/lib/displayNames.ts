import { i18n } from '@lingui/core';

const cache = new Map<string, Intl.DisplayNames | null>();

/**
 * Names of languages or regions in the interface's language (not the browser's), so a page in
 * Japanese lists "フランス語", one per locale and kind, made once.
 */
export function displayNames(type: 'language' | 'region'): Intl.DisplayNames | null {
  if (typeof Intl.DisplayNames !== 'function') return null;
  const locale = i18n.locale || 'en';
  const key = `${type}:${locale}`;
  if (!cache.has(key)) {
    let names: Intl.DisplayNames | null;
    try {
      // The pseudo-locale (en-XA) is English underneath.
      names = new Intl.DisplayNames([locale === 'en-XA' ? 'en' : locale, 'en'], { type });
    } catch {
      names = null;
    }
    cache.set(key, names);
  }
  return cache.get(key) ?? null;
}

const names = new Map<string, Map<string, string>>();

/**
 * The name of a language or region code in the interface's language, or the code itself. Names are
 * kept per locale: pickers list a few hundred of them at every render, and `of()` is not cheap.
 */
export function displayName(type: 'language' | 'region', code: string): string {
  const key = `${type}:${i18n.locale || 'en'}`;
  let known = names.get(key);
  if (!known) names.set(key, (known = new Map()));
  let name = known.get(code);
  if (name === undefined) {
    try {
      name = displayNames(type)?.of(code) ?? code;
    } catch {
      name = code;
    }
    known.set(code, name);
  }
  return name;
}

/** Codes sorted by their names in the interface's language (`locale`, which a memo depends on). */
export function sortedByName(codes: readonly string[], name: (code: string) => string, locale: string): string[] {
  const collator = new Intl.Collator(locale === 'en-XA' ? 'en' : locale || 'en');
  return [...codes].sort((a, b) => collator.compare(name(a), name(b)));
}
