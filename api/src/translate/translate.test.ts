import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthProviders } from '@parley/contract/auth';
import { TRANSLATE_ERR, TRANSLATE_MAX_CHARS, TRANSLATIONS_PER_MINUTE, type TranslateAnswer } from '@parley/contract/translate';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { member } from '../testing/people.ts';
import { translateStandIn } from '../testing/translateStandIn.ts';

const post = (json: unknown) => ({ method: 'POST', json });

describe('POST /api/translate against a LibreTranslate stand-in', () => {
  let server: TestServer;
  let off: TestServer;
  let translator: Awaited<ReturnType<typeof translateStandIn>>;
  beforeAll(async () => {
    translator = await translateStandIn({ apiKey: 'operator-key' });
    [server, off] = await Promise.all([
      // Long enough for a busy machine's answers; the hanging translator waits it out once.
      startTestServer({ TRANSLATE_URL: translator.url, TRANSLATE_API_KEY: 'operator-key', TRANSLATE_TIMEOUT_MS: '3000' }),
      startTestServer(),
    ]);
  });
  afterAll(async () => {
    await Promise.all([server?.close(), off?.close()]);
    await translator?.close();
  });

  it('is off without TRANSLATE_URL: the providers say so, the route answers 404, and nothing is sent anywhere', async () => {
    const ana = await member(off);
    expect(((await (await off.api('/api/auth/providers')).json()) as AuthProviders).translate).toBe(false);
    const before = translator.calls.length;
    const res = await ana.call('/api/translate', post({ text: 'hola' }));
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ message: TRANSLATE_ERR.off, code: 'translation_off' });
    expect(translator.calls.length).toBe(before);
  });

  it("translates into the viewer's language, sending only the text, the target and the operator's key", async () => {
    expect(((await (await server.api('/api/auth/providers')).json()) as AuthProviders).translate).toBe(true);
    const ana = await member(server);
    await ana.call('/api/settings', { method: 'PATCH', json: { locale: 'ja' } });
    const res = await ana.call('/api/translate', post({ text: '  ¿De dónde eres?  ' }));
    expect(res.status).toBe(200);
    expect((await res.json()) as TranslateAnswer).toEqual({ translatedText: '[ja] ¿De dónde eres?', target: 'ja', detectedLanguage: 'es' });
    expect(translator.calls.at(-1)).toEqual({
      q: '¿De dónde eres?',
      source: 'auto',
      target: 'ja',
      format: 'text',
      api_key: 'operator-key',
    });
    // A target named by the page wins; Brazilian Portuguese is LibreTranslate's "pt".
    const pt = (await (await ana.call('/api/translate', post({ text: 'hi', target: 'pt-BR' }))).json()) as TranslateAnswer;
    expect(pt).toMatchObject({ translatedText: '[pt] hi', target: 'pt-BR' });
    // No language chosen: the one the request asks for.
    const bo = await member(server);
    const fr = await bo.call('/api/translate', { ...post({ text: 'hola' }), headers: { 'accept-language': 'fr-CA,fr;q=0.9' } });
    expect(((await fr.json()) as TranslateAnswer).target).toBe('fr');
  });

  it('refuses strangers to the server and bad bodies before anything is sent', async () => {
    const ana = await member(server);
    const before = translator.calls.length;
    expect((await server.api('/api/translate', post({ text: 'hola' }))).status).toBe(401);
    for (const bad of [
      {},
      { text: '' },
      { text: '   ' },
      { text: 'x'.repeat(TRANSLATE_MAX_CHARS + 1) },
      { text: 'a', target: 'xx' },
      { text: 'a', extra: 1 },
      { text: 'a\u0000' },
      { text: 7 },
    ]) {
      const res = await ana.call('/api/translate', post(bad));
      expect(res.status, JSON.stringify(bad).slice(0, 40)).toBe(400);
    }
    expect(translator.calls.length).toBe(before);
  });

  it(`limits each person to ${TRANSLATIONS_PER_MINUTE} translations a minute`, async () => {
    const [ana, bo] = [await member(server), await member(server)];
    for (let i = 0; i < TRANSLATIONS_PER_MINUTE; i++) expect((await ana.call('/api/translate', post({ text: `m${i}` }))).status).toBe(200);
    const refused = await ana.call('/api/translate', post({ text: 'one more' }));
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(((await refused.json()) as { message: string }).message).toBe(TRANSLATE_ERR.tooMany);
    expect((await bo.call('/api/translate', post({ text: 'mine' }))).status).toBe(200);
  });

  it('answers its errors in the language the request asks for, English otherwise', async () => {
    const ana = await member(server);
    const asked = (lang?: string) =>
      ana.call('/api/translate', { ...post({ text: 'x'.repeat(10) }), headers: lang ? { 'accept-language': lang } : {} });
    translator.set('error');
    try {
      expect(((await (await asked('de-DE,de;q=0.9')).json()) as { message: string }).message).toBe(
        'Der Übersetzer antwortet gerade nicht. Bitte versuche es später noch einmal.',
      );
      expect(((await (await asked()).json()) as { message: string }).message).toBe(TRANSLATE_ERR.unavailable);
    } finally {
      translator.set('ok');
    }
    const missing = await server.api('/api/nothing-here', { headers: { 'accept-language': 'ar' } });
    expect(await missing.json()).toEqual({ message: 'غير موجود', code: 'not_found' });
  });

  it('says clearly when the translator fails, hangs past the timeout or answers nonsense', async () => {
    const ana = await member(server);
    try {
      for (const mode of ['error', 'hang', 'garbage'] as const) {
        translator.set(mode);
        const started = Date.now();
        const res = await ana.call('/api/translate', post({ text: 'hola' }));
        expect(res.status, mode).toBe(503);
        expect(await res.json()).toMatchObject({ message: TRANSLATE_ERR.unavailable, code: 'translator_unavailable' });
        expect(Date.now() - started, mode).toBeLessThan(5000);
      }
    } finally {
      translator.set('ok');
    }
  });
});
