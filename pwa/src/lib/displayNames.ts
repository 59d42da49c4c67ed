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

/** Codes sorted by their names in the interface's language (`locale`, which a memo depends on). */
export function sortedByName(codes: readonly string[], name: (code: string) => string, locale: string): string[] {
  const collator = new Intl.Collator(locale === 'en-XA' ? 'en' : locale || 'en');
  return [...codes].sort((a, b) => collator.compare(name(a), name(b)));
}
