import type { Page } from '@playwright/test';

/**
 * Text on the page a person can see or hear that is plain English: a string that skipped the
 * catalogs (run with the pseudo-locale, en-XA, where every catalog message is accented). `data`
 * (people's names, codes) is the same in every language and is left out; a <time> holds a date
 * Intl formats, which has no pseudo-locale of its own.
 */
export function untranslated(page: Page, data: string[] = []): Promise<string[]> {
  return page.evaluate((data) => {
    // The brand and the languages' own names are the same in every language.
    const allowed =
      /^(Parley|Google|ALTCHA|English|Español|Português \(Brasil\)|Français|Deutsch|Türkçe|Bahasa Indonesia|Pseudo \(en-XA\)|\d+ s)$/;
    const english = /[A-Za-z]{3,}/;
    const found: string[] = [];
    const isEnglish = (text: string) => {
      const rest = data.reduce((s, d) => s.split(d).join(' '), text).trim();
      return english.test(rest) && !allowed.test(rest);
    };
    const visible = (el: Element) => el.getClientRects().length > 0 || el.closest('.sr-only') !== null;
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent?.trim() ?? '';
      const parent = node.parentElement;
      if (!text || !parent || parent.closest('script, style, option, time, [aria-hidden="true"]') || !visible(parent)) continue;
      if (isEnglish(text)) found.push(text);
    }
    for (const el of document.querySelectorAll('[aria-label], [alt], [placeholder], [title]')) {
      for (const attr of ['aria-label', 'alt', 'placeholder', 'title']) {
        const value = el.getAttribute(attr)?.trim();
        if (value && isEnglish(value)) found.push(`${attr}="${value}"`);
      }
    }
    if (isEnglish(document.title)) found.push(`<title>${document.title}`);
    return found;
  }, data);
}
