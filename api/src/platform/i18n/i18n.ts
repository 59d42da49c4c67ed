import { readFileSync } from 'node:fs';
import path from 'node:path';
import { setupI18n, type I18n, type MessageDescriptor, type Messages } from '@lingui/core';
import { UI_LOCALES, type UiLocale } from '@parley/contract/locales';
import { settingsFrom } from '../../db/settings.ts';
import { apiRoot } from '../paths.ts';

/**
 * The server's words in a person's language, through the same library (Lingui, ICU MessageFormat)
 * and the same languages as the PWA. Its catalogs (pushes, emails, stored notices) are compiled
 * ahead to JSON (`npm run i18n:compile -w api`) and each is read when its language is first
 * needed: a process whose people all speak one language never holds the other eight.
 */
const CATALOGS = path.join(apiRoot, 'src/platform/i18n/locales');

/** A language's compiled catalog, as `npm run i18n:compile -w api` wrote it. */
export function serverCatalog(locale: UiLocale): Messages {
  return (JSON.parse(readFileSync(path.join(CATALOGS, locale, 'messages.json'), 'utf8')) as { messages: Messages }).messages;
}

/**
 * Something to say, not yet in any language: a message and its values. A value may itself be
 * words (a rule's name inside a warning), rendered in the same language first.
 */
export type Words = { message: MessageDescriptor; values?: Record<string, string | number | Words> };

export const words = (message: MessageDescriptor, values?: Words['values']): Words => ({ message, values });

const translators = new Map<UiLocale, I18n>();

/** The language's translator, made on its first use (a small file read once per language and process). */
function translator(locale: UiLocale): I18n {
  let i18n = translators.get(locale);
  if (!i18n) {
    // A message missing from a language (never in a shipped build: a test checks) reads in English.
    const en = locale === 'en' ? {} : translator('en').messages;
    i18n = setupI18n({ locale, locales: [locale], messages: { [locale]: { ...en, ...serverCatalog(locale) } } });
    translators.set(locale, i18n);
  }
  return i18n;
}

const isUiLocale = (tag: string): tag is UiLocale => (UI_LOCALES as readonly string[]).includes(tag);

/** Renders words in a language (English when none is known). */
export function render(locale: UiLocale | null | undefined, w: Words): string {
  const i18n = translator(locale && isUiLocale(locale) ? locale : 'en');
  const values: Record<string, string | number> = {};
  for (const [k, v] of Object.entries(w.values ?? {})) values[k] = typeof v === 'object' ? render(locale, v) : v;
  return i18n._(w.message.id, values);
}

/** Whether a language is written right to left (for an email's `dir`). */
export const rightToLeft = (locale: UiLocale | null | undefined) => locale === 'ar';

/**
 * The shipped language an Accept-Language header asks for first: an exact tag, else the same
 * language (pt-PT → pt-BR, es-MX → es), else null. The PWA sends the language it shows.
 */
export function localeFromHeader(header: string | undefined): UiLocale | null {
  if (!header) return null;
  const asked = header
    .split(',')
    .map((part) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return { tag: tag.trim(), q: q ? Number(q.slice(2)) : 1 };
    })
    .filter((a) => a.tag && a.tag !== '*' && a.q > 0 && Number.isFinite(a.q))
    .sort((a, b) => b.q - a.q)
    .slice(0, 20);
  for (const { tag } of asked) {
    const exact = UI_LOCALES.find((l) => l.toLowerCase() === tag.toLowerCase());
    if (exact) return exact;
    const language = tag.split('-')[0]!.toLowerCase();
    const same = UI_LOCALES.find((l) => l.split('-')[0]!.toLowerCase() === language);
    if (same) return same;
  }
  return null;
}

/** The language an account chose in the app (its stored settings), null when it never chose one. */
export const accountLocale = (storedSettings: unknown): UiLocale | null => {
  const locale = settingsFrom(storedSettings).locale;
  return locale && isUiLocale(locale) ? locale : null;
};
