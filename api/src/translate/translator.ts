import { z } from 'zod';
import type { UiLocale } from '@parley/contract/locales';

/** LibreTranslate's code for each interface language: it has one Portuguese. */
const LIBRE_CODE: Record<UiLocale, string> = {
  en: 'en',
  es: 'es',
  'pt-BR': 'pt',
  fr: 'fr',
  de: 'de',
  tr: 'tr',
  id: 'id',
  ar: 'ar',
  ja: 'ja',
};

/** What LibreTranslate's POST /translate answers (other fields, such as alternatives, are ignored). */
const answerSchema = z.object({
  translatedText: z.string().max(20_000),
  detectedLanguage: z
    .object({ language: z.string().max(20) })
    .partial()
    .optional(),
});

export class TranslatorUnavailable extends Error {}

export type Translator = {
  translate(text: string, target: UiLocale): Promise<{ translatedText: string; detectedLanguage: string | null }>;
};

/**
 * A LibreTranslate-compatible server (self-hosted, or a provider speaking the same API): the text
 * alone goes, with the target language and the operator's key; the source language is detected.
 * Any failure (refused, timed out, an error status, an answer that does not parse) is one
 * TranslatorUnavailable for the caller to report.
 */
export function libreTranslate(opts: { url: string; apiKey?: string; timeoutMs: number; fetch?: typeof fetch }): Translator {
  const endpoint = new URL('translate', opts.url.endsWith('/') ? opts.url : `${opts.url}/`).href;
  const doFetch = opts.fetch ?? fetch;
  return {
    async translate(text, target) {
      let res: Response;
      try {
        res = await doFetch(endpoint, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify({
            q: text,
            source: 'auto',
            target: LIBRE_CODE[target],
            format: 'text',
            ...(opts.apiKey ? { api_key: opts.apiKey } : {}),
          }),
          signal: AbortSignal.timeout(opts.timeoutMs),
          redirect: 'error',
        });
      } catch (err) {
        throw new TranslatorUnavailable(`translator unreachable: ${(err as Error).message}`);
      }
      if (!res.ok) {
        await res.body?.cancel().catch(() => undefined);
        throw new TranslatorUnavailable(`translator answered ${res.status}`);
      }
      let parsed: z.infer<typeof answerSchema>;
      try {
        parsed = answerSchema.parse(await res.json());
      } catch {
        throw new TranslatorUnavailable('translator answered something that is not a translation');
      }
      return { translatedText: parsed.translatedText, detectedLanguage: parsed.detectedLanguage?.language ?? null };
    },
  };
}
