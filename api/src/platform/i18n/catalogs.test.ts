import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { getConfig } from '@lingui/conf';
import { getCatalogs } from '@lingui/cli/api';
import { compileMessageOrThrow, type CompiledMessage } from '@lingui/message-utils/compileMessage';
import { UI_LOCALES } from '@parley/contract/locales';
import { ERR } from '@parley/contract/errors';
import { ACCOUNT_ERR } from '@parley/contract/accounts';
import { TRANSLATE_ERR } from '@parley/contract/translate';
import { SAFETY_ERR } from '@parley/contract/safety';
import { SHOP_ERR } from '@parley/contract/shop';
import { FACTOR_ERR } from '@parley/contract/factors';
import { ATTACHMENT_ERR } from '@parley/contract/attachments';
import { MEDIA_ERR } from '@parley/contract/media';
import { BILLING_ERR } from '@parley/contract/billing';
import { MISSION_ERR } from '@parley/contract/missions';
import { GROUP_REFUSALS } from '@parley/contract/groups';
import { DIRECT_REFUSALS } from '@parley/contract/direct';
import { readdir, readFile } from 'node:fs/promises';
import { serverCatalog, localeFromHeader, render, words } from './i18n.ts';
import { ERROR_MESSAGES, SERVER_ERROR_MESSAGES, errorIn } from './errors.ts';

/**
 * The server's catalogs as CI checks them: the source catalog holds every message of the code,
 * every shipped language translates each of them in valid ICU with the source's placeholders, and
 * the compiled catalogs the server reads are those of the .po files (`npm run i18n:compile -w api`).
 */
const config = getConfig({ configPath: path.resolve(import.meta.dirname, '../../../lingui.config.ts') });
const translated = UI_LOCALES.filter((l) => l !== 'en');

function argumentsOf(message: CompiledMessage, into = new Set<string>()): Set<string> {
  for (const token of message) {
    if (typeof token === 'string') continue;
    const [name, , format] = token;
    if (name !== '#') into.add(name);
    if (format && typeof format === 'object')
      for (const [key, choice] of Object.entries(format))
        if (key !== 'offset' && Array.isArray(choice)) argumentsOf(choice as CompiledMessage, into);
  }
  return into;
}

describe('server language catalogs', async () => {
  const [catalog] = await getCatalogs(config);

  it('ship the languages of the interface', () => {
    expect(config.locales).toEqual([...UI_LOCALES]);
    for (const locale of UI_LOCALES) expect(Object.keys(serverCatalog(locale)).length, locale).toBeGreaterThan(0);
  });

  it('the source catalog holds every message of the code, and no message it no longer has', async () => {
    const inCode = await catalog!.collect();
    const source = await catalog!.read('en');
    const live = Object.keys(source).filter((id) => !source[id]!.obsolete);
    expect(live.sort(), 'run npm run i18n:extract -w api').toEqual(Object.keys(inCode ?? {}).sort());
  });

  it('every language has every key, in valid ICU with the placeholders of English', async () => {
    const source = await catalog!.read('en');
    const problems: string[] = [];
    for (const locale of translated) {
      const messages = await catalog!.read(locale);
      for (const [id, entry] of Object.entries(source)) {
        if (entry.obsolete) continue;
        const english = entry.translation || entry.message || id;
        const text = messages[id]?.translation;
        if (!text) {
          problems.push(`${locale}: missing ${id}`);
          continue;
        }
        try {
          const args = [...argumentsOf(compileMessageOrThrow(text))].sort().join();
          if (args !== [...argumentsOf(compileMessageOrThrow(english))].sort().join())
            problems.push(`${locale}: placeholders differ in ${id}`);
        } catch (error) {
          problems.push(`${locale}: invalid ICU in ${id}: ${String(error)}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('the compiled catalogs are those of the .po files', async () => {
    for (const locale of UI_LOCALES) {
      const entries = await catalog!.read(locale);
      const fromPo = Object.fromEntries(
        Object.entries(entries)
          .filter(([, e]) => !e.obsolete)
          .map(([id, e]) => [id, compileMessageOrThrow(e.translation || e.message || id)]),
      );
      expect(serverCatalog(locale), `run npm run i18n:compile -w api (${locale})`).toEqual(fromPo);
    }
  });

  it('renders with plurals and nested words, and finds a missing translation able to fail the check', () => {
    const more = { id: 'push.withMore' };
    expect(render('en', words(more, { text: 'bob: hi', more: 1 }))).toBe('bob: hi (+1 more)');
    expect(render('fr', words(more, { text: 'bob : salut', more: 3 }))).toBe('bob : salut (et 3 autres)');
    expect(render('ar', words({ id: 'notice.warnedRule' }, { rule: words({ id: 'rule.hate' }) }))).toContain(
      render('ar', words({ id: 'rule.hate' })),
    );
    expect(render(null, words({ id: 'push.title.levelUp' }))).toBe('Level up');
    expect(() => compileMessageOrThrow('{more, plural, one {#}')).toThrow();
  });

  it("words the contract's error messages exactly as the contract does in English, and in each language", () => {
    const { noServerResponse: _clientOnly, ...fromServer } = ERR;
    const { tooManyRooms, tooLarge, ...groupTexts } = GROUP_REFUSALS;
    const tables = [
      fromServer,
      ACCOUNT_ERR,
      TRANSLATE_ERR,
      SAFETY_ERR,
      SHOP_ERR,
      FACTOR_ERR,
      ATTACHMENT_ERR,
      MEDIA_ERR,
      BILLING_ERR,
      MISSION_ERR,
      groupTexts,
      DIRECT_REFUSALS,
    ];
    // A refusal with a value in it is held by its English with the value as a placeholder.
    const contract = [...tables.flatMap((t) => Object.values(t)), tooManyRooms('{n}' as never), tooLarge('{n}' as never)].sort();
    expect(ERROR_MESSAGES.map((m) => m.message).sort()).toEqual(contract);
    expect(errorIn('es', ERR.notFound)).toBe('No encontrado');
    expect(errorIn('en', ERR.unauthorized)).toBe('Unauthorized');
    expect(errorIn('es', SHOP_ERR.notEnoughGold)).toBe(
      'Todavía no tienes suficiente oro para esto. Completa misiones y chatea para ganar más.',
    );
    expect(errorIn('de', GROUP_REFUSALS.tooManyRooms(3))).toBe(
      'Dir gehören bereits 3 offene Räume. Schließe einen, um einen neuen zu erstellen, oder besitze mit Premium mehr.',
    );
    expect(errorIn('ja', GROUP_REFUSALS.tooLarge(50))).toContain('50人');
    expect(errorIn('fr', 'Your request to ana_b is waiting for an answer.')).toBe('Votre demande à ana_b attend une réponse.');
    expect(errorIn('ja', 'A message the catalog does not have')).toBe('A message the catalog does not have');
    for (const locale of translated)
      for (const m of [...ERROR_MESSAGES, ...SERVER_ERROR_MESSAGES])
        expect(errorIn(locale, m.message!.replace('{n}', '7')), `${locale} ${m.id}`).not.toBe(m.message!.replace('{n}', '7'));
  });

  it("words the server's own refusals as its code does", async () => {
    // Each English of the server's table is written in the code (a route, a socket, a policy, a contract schema), word for word.
    const roots = [path.resolve(import.meta.dirname, '../..'), path.resolve(import.meta.dirname, '../../../../contract/src')];
    const texts: string[] = [];
    for (const root of roots)
      for (const f of await readdir(root, { recursive: true }))
        if (f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.includes('i18n/')) texts.push(await readFile(path.join(root, f), 'utf8'));
    const code = texts.join('\n');
    // A message with a value is written as a template there: `Your request to ${them.username} is…`.
    const written = (english: string) =>
      /\{\w+\}/.test(english)
        ? new RegExp(
            `\``.concat(
              english
                .split(/\{\w+\}/)
                .map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
                .join('\\$\\{[^}]+\\}'),
              '`',
            ),
          ).test(code)
        : code.includes(`'${english}'`);
    const unused = SERVER_ERROR_MESSAGES.map((m) => m.message!).filter((english) => !written(english));
    expect(unused).toEqual([]);
  });

  it('reads the language a request asks for', () => {
    expect(localeFromHeader('pt-PT,pt;q=0.9')).toBe('pt-BR');
    expect(localeFromHeader('nl-NL, ja;q=0.8, en;q=0.9')).toBe('en');
    expect(localeFromHeader('nl, tr;q=0.2')).toBe('tr');
    expect(localeFromHeader('ES-mx')).toBe('es');
    expect(localeFromHeader('nl')).toBeNull();
    expect(localeFromHeader(undefined)).toBeNull();
  });
});
