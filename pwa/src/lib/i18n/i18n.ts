import { i18n, type Messages } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { directionOf, saveLocale, type Locale } from './locales';

export { i18n };

/**
 * Each locale has two catalogs, each its own chunk (the Vite plugin compiles the .po file when
 * imported), so a visitor downloads only the language they read: the shell (frame, landing page,
 * sign-in and sign-up, shared components) before the first render, and the other pages' messages
 * with the first of those pages (`withPageMessages`).
 */
type Part = 'shell' | 'pages';
const catalogs = import.meta.glob<{ messages: Messages }>('../../locales/*/*.po');

async function loadCatalog(locale: Locale, part: Part): Promise<Messages> {
  const load = catalogs[`../../locales/${locale}/${part}.po`];
  if (!load) throw new Error(`No ${part} catalog for ${locale}`);
  return (await load()).messages;
}

/** Whether a page outside the shell was opened: from then on a language switch loads both catalogs. */
let pagesWanted = false;
/** The locale whose page messages are loaded (or loading), with that load. */
let pagesLoad: { locale: string; done: Promise<void> } | null = null;

/** The title of index.html, which every page without a title of its own keeps. */
const BASE_TITLE = msg`Parley: meet new people`;
let baseTitle: string | null = null;

/**
 * Sets the document's language and direction, so screen readers, fonts and the layout follow, and
 * the base title in that language (a page's own title, DocumentTitle, is its page's to change).
 */
export function applyDocumentLocale(locale: Locale, root: HTMLElement = document.documentElement) {
  root.lang = locale;
  root.dir = directionOf(locale);
  baseTitle ??= document.title;
  if (document.title === baseTitle) document.title = baseTitle = i18n._(BASE_TITLE);
}

/** Loads the locale's catalogs and switches the interface to it (every translated string re-renders). */
export async function activateLocale(locale: Locale): Promise<void> {
  const [shell, pages] = await Promise.all([loadCatalog(locale, 'shell'), pagesWanted ? loadCatalog(locale, 'pages') : null]);
  if (pages) pagesLoad = { locale, done: Promise.resolve() };
  i18n.loadAndActivate({ locale, messages: { ...shell, ...pages } });
  applyDocumentLocale(locale);
}

/** A person's choice: switched at once and remembered on this device. */
export async function chooseLocale(locale: Locale): Promise<void> {
  await activateLocale(locale);
  saveLocale(locale);
}

/** The page messages of the language shown, loaded once per language. */
export function loadPageMessages(): Promise<void> {
  pagesWanted = true;
  const locale = i18n.locale as Locale;
  if (pagesLoad?.locale !== locale) {
    const done = loadCatalog(locale, 'pages').then((messages) => i18n.load(locale, messages));
    // A failed load (offline, never cached) is tried again by the next page that needs it.
    done.catch(() => pagesLoad?.done === done && (pagesLoad = null));
    pagesLoad = { locale, done };
  }
  return pagesLoad.done;
}

/** A lazily loaded page that renders only once its messages are there too (for React.lazy). */
export function withPageMessages<T>(load: () => Promise<T>): () => Promise<T> {
  return () => Promise.all([load(), loadPageMessages()]).then(([page]) => page);
}
