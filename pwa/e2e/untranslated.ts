import type { Page } from '@playwright/test';

/**
 * Text on the page a person can see or hear that is plain English while the pseudo-locale (en-XA)
 * is shown: a string that skipped the catalogs. `data` (people's and rooms' names, what they wrote)
 * is the same in every language and is left out.
 */
export function untranslated(page: Page, data: string[] = []): Promise<string[]> {
  return page.evaluate((data) => {
    // The brand and the languages' own names are the same in every language.
    const allowed =
      /^(Parley|Google|ALTCHA|English|Español|Português \(Brasil\)|Français|Deutsch|Türkçe|Bahasa Indonesia|Pseudo \(en-XA\)|\d+ s)$/;
    const english = /[A-Za-z]{3,}/;
    const found: string[] = [];
    // Longest first, so a name that contains another is taken out whole.
    const sorted = [...data].filter(Boolean).sort((a, b) => b.length - a.length);
    const isEnglish = (text: string) => {
      const rest = sorted.reduce((s, d) => s.split(d).join(' '), text).trim();
      return english.test(rest) && !allowed.test(rest);
    };
    const visible = (el: Element) => el.getClientRects().length > 0 || el.closest('.sr-only') !== null;
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent?.trim() ?? '';
      const parent = node.parentElement;
      // A <time> holds a date the browser formats (Intl), which has no pseudo-locale of its own; an
      // <option> may name a device or a language in its own words.
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
