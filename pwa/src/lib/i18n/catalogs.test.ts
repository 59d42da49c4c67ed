import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { getConfig } from '@lingui/conf';
import { getCatalogs } from '@lingui/cli/api';
import { compileMessageOrThrow, type CompiledMessage } from '@lingui/message-utils/compileMessage';
import { UI_LOCALES } from '@parley/contract/locales';
import { LOCALES, PSEUDO_LOCALE, SOURCE_LOCALE, negotiateLocale } from './locales';

/**
 * The catalogs CI relies on: every shipped locale translates every message of the source (English)
 * catalog, in valid ICU MessageFormat with the same placeholders and tags, and the source catalog
 * holds every message the code has (`npm run i18n:extract` was run).
 */
const config = getConfig({ configPath: path.resolve(import.meta.dirname, '../../../lingui.config.ts') });
const translated = LOCALES.map((l) => l.code).filter((l) => l !== SOURCE_LOCALE);

/** The arguments ({name}, {count, plural, …}) a compiled message uses, nested choices included. */
function argumentsOf(message: CompiledMessage, into = new Set<string>()): Set<string> {
  for (const token of message) {
    if (typeof token === 'string') continue;
    const [name, , format] = token;
    if (name !== '#') into.add(name);
    if (format && typeof format === 'object')
      for (const [key, choice] of Object.entries(format)) if (key !== 'offset' && Array.isArray(choice)) argumentsOf(choice as CompiledMessage, into);
  }
  return into;
}
/** The element tags (<0>…</0>, <1/>) a message wraps text in, which <Trans> fills with components. */
const tagsOf = (message: string) => [...message.matchAll(/<\/?(\d+)\/?>/g)].map((m) => m[0]).sort();

describe('interface language catalogs', async () => {
  const catalogs = await getCatalogs(config);

  it('ship the same languages as the contract and the language chooser, plus the pseudo-locale', () => {
    expect(LOCALES.map((l) => l.code)).toEqual([...UI_LOCALES]);
    expect(config.locales).toEqual([...UI_LOCALES, PSEUDO_LOCALE]);
    expect(config.pseudoLocale).toBe(PSEUDO_LOCALE);
    expect(catalogs.map((c) => path.basename(c.path))).toEqual(['shell', 'pages']);
  });

  for (const catalog of catalogs) {
    const name = path.basename(catalog.path);

    it(`${name}: the source catalog holds every message of the code, and no message it no longer has`, async () => {
      const inCode = await catalog.collect();
      const source = await catalog.read(SOURCE_LOCALE);
      const live = Object.keys(source).filter((id) => !source[id]!.obsolete);
      expect(live.sort(), 'run npm run i18n:extract').toEqual(Object.keys(inCode ?? {}).sort());
    });

    it(`${name}: every language translates every message, in valid ICU with the source's placeholders`, async () => {
      const source = await catalog.read(SOURCE_LOCALE);
      // Each language's catalog read once, not once per message: the catalogs hold well over a thousand.
      const catalogsOf = Object.fromEntries(await Promise.all(translated.map(async (l) => [l, await catalog.read(l)] as const)));
      const problems: string[] = [];
      for (const [id, entry] of Object.entries(source)) {
        if (entry.obsolete) continue;
        const english = entry.message ?? id;
        const args = [...argumentsOf(compileMessageOrThrow(english))].sort();
        for (const locale of translated) {
          const text = catalogsOf[locale]?.[id]?.translation;
          if (!text) {
            problems.push(`${locale}: missing "${english}"`);
            continue;
          }
          let compiled: CompiledMessage;
          try {
            compiled = compileMessageOrThrow(text);
          } catch (error) {
            problems.push(`${locale}: invalid ICU in "${text}": ${String(error)}`);
            continue;
          }
          if ([...argumentsOf(compiled)].sort().join() !== args.join()) problems.push(`${locale}: placeholders differ in "${text}" (source "${english}")`);
          if (tagsOf(text).join() !== tagsOf(english).join()) problems.push(`${locale}: tags differ in "${text}" (source "${english}")`);
        }
      }
      expect(problems).toEqual([]);
    });
  }

  it('finds the check itself able to fail: a broken message and a missing placeholder are caught', () => {
    expect(() => compileMessageOrThrow('{count, plural, one {# chat}')).toThrow();
    expect([...argumentsOf(compileMessageOrThrow('{count, plural, one {# chat with {name}} other {# chats}}'))].sort()).toEqual(['count', 'name']);
    expect(tagsOf('Read the <0>rules</0> and <1/>')).toEqual(['</0>', '<0>', '<1/>']);
  });
});

describe('the first language', () => {
  it('follows the browser: an exact tag, else the same language, else English', () => {
    expect(negotiateLocale(['pt-BR'])).toBe('pt-BR');
    expect(negotiateLocale(['pt-PT', 'en'])).toBe('pt-BR');
    expect(negotiateLocale(['es-MX'])).toBe('es');
    expect(negotiateLocale(['nl-NL', 'ja-JP'])).toBe('ja');
    expect(negotiateLocale(['ar-EG'])).toBe('ar');
    expect(negotiateLocale(['nl'])).toBe('en');
    expect(negotiateLocale([])).toBe('en');
  });
});
