import { i18n, type Messages } from '@lingui/core';
import { directionOf, saveLocale, type Locale } from './locales';

export { i18n };

/**
 * Each locale's catalog is its own chunk (the Vite plugin compiles the .po file when imported), so
 * a visitor downloads only the language they read.
 */
const catalogs = import.meta.glob<{ messages: Messages }>('../../locales/*/messages.po');

async function loadCatalog(locale: Locale): Promise<Messages> {
  const load = catalogs[`../../locales/${locale}/messages.po`];
  if (!load) throw new Error(`No catalog for ${locale}`);
  return (await load()).messages;
}

/** Sets the document's language and direction, so screen readers, fonts and the layout follow. */
export function applyDocumentLocale(locale: Locale, root: HTMLElement = document.documentElement) {
  root.lang = locale;
  root.dir = directionOf(locale);
}

/** Loads the locale's catalog and switches the interface to it (every translated string re-renders). */
export async function activateLocale(locale: Locale): Promise<void> {
  const messages = await loadCatalog(locale);
  i18n.loadAndActivate({ locale, messages });
  applyDocumentLocale(locale);
}

/** A person's choice: switched at once and remembered on this device. */
export async function chooseLocale(locale: Locale): Promise<void> {
  await activateLocale(locale);
  saveLocale(locale);
}
