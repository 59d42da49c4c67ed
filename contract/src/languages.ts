import { z } from 'zod';

/** ISO 639-1 codes: the languages a person may say they speak or learn; clients name them with Intl.DisplayNames. */
export const LANGUAGE_CODES = (
  'aa ab ae af ak am an ar as av ay az ba be bg bi bm bn bo br bs ca ce ch co cr cs cu cv cy da de dv dz ee el en eo es ' +
  'et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu hy hz ia id ie ig ii ik io is it iu ja jv ka kg ki ' +
  'kj kk kl km kn ko kr ks ku kv kw ky la lb lg li ln lo lt lu lv mg mh mi mk ml mn mr ms mt my na nb nd ne ng nl nn no ' +
  'nr nv ny oc oj om or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg si sk sl sm sn so sq sr ss st su sv sw ta te ' +
  'tg th ti tk tl tn to tr ts tt tw ty ug uk ur uz ve vi vo wa wo xh yi yo za zh zu'
).split(' ') as readonly string[];

const LANGUAGE_SET = new Set(LANGUAGE_CODES);
/** Languages listed as spoken, learnt or required: a short list keeps matching cheap. */
export const LANGUAGES_MAX = 5;

export const languageCodeSchema = z
  .string({ error: 'A language is a two-letter code' })
  .transform((c) => c.toLowerCase())
  .refine((c) => LANGUAGE_SET.has(c), 'Choose a language from the list');

/** A list of languages, each once. */
export const languageListSchema = z
  .array(languageCodeSchema)
  .max(LANGUAGES_MAX, `At most ${LANGUAGES_MAX} languages`)
  .transform((l) => [...new Set(l)]);

/**
 * The languages of a browser (navigator.languages: `es-MX`, `pt-BR`, `en`) as the codes Parley
 * knows, first choices first: the default of a new profile.
 */
export function languagesOfLocales(locales: readonly string[]): string[] {
  const out: string[] = [];
  for (const l of locales) {
    const code = l.split(/[-_]/)[0]!.toLowerCase();
    if (LANGUAGE_SET.has(code) && !out.includes(code)) out.push(code);
    if (out.length === LANGUAGES_MAX) break;
  }
  return out;
}
