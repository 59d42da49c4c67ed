import { setupI18n, type I18n, type MessageDescriptor, type Messages } from '@lingui/core';
import { UI_LOCALES, type UiLocale } from '@parley/contract/locales';
import { settingsFrom } from '../../db/settings.ts';
import { messages as en } from './locales/en/messages.ts';
import { messages as es } from './locales/es/messages.ts';
import { messages as ptBR } from './locales/pt-BR/messages.ts';
import { messages as fr } from './locales/fr/messages.ts';
import { messages as de } from './locales/de/messages.ts';
import { messages as tr } from './locales/tr/messages.ts';
import { messages as id } from './locales/id/messages.ts';
import { messages as ar } from './locales/ar/messages.ts';
import { messages as ja } from './locales/ja/messages.ts';

/**
 * The server's words in a person's language, through the same library (Lingui, ICU MessageFormat)
 * and the same languages as the PWA. Its catalogs are small (pushes, emails, stored notices) and
 * compiled ahead, so all of them are loaded once at start and a text is rendered when it is sent,
 * in the language of the one it is sent to.
 */
export const SERVER_CATALOGS: Record<UiLocale, Messages> = { en, es, 'pt-BR': ptBR, fr, de, tr, id, ar, ja };

/**
 * Something to say, not yet in any language: a message and its values. A value may itself be
 * words (a rule's name inside a warning), rendered in the same language first.
 */
export type Words = { message: MessageDescriptor; values?: Record<string, string | number | Words> };

export const words = (message: MessageDescriptor, values?: Words['values']): Words => ({ message, values });

const translators = new Map<UiLocale, I18n>(
  UI_LOCALES.map((locale) => {
    // A message missing from a language (never in a shipped build: a test checks) reads in English.
    const i18n = setupI18n({ locale, locales: [locale], messages: { [locale]: { ...en, ...SERVER_CATALOGS[locale] } } });
    return [locale, i18n] as const;
  }),
);

const isUiLocale = (tag: string): tag is UiLocale => (UI_LOCALES as readonly string[]).includes(tag);

/** Renders words in a language (English when none is known). */
export function render(locale: UiLocale | null | undefined, w: Words): string {
  const i18n = translators.get(locale ?? 'en') ?? translators.get('en')!;
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
