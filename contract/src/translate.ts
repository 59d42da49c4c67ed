import { z } from 'zod';
import { UI_LOCALES, type UiLocale } from './locales.ts';
import { text } from './text.ts';

/** The longest text one translation takes: a long chat message, not a document. */
export const TRANSLATE_MAX_CHARS = 2000;
/** Translations one person may ask for a minute. */
export const TRANSLATIONS_PER_MINUTE = 20;

/** POST /api/translate: a message to put into the viewer's language (`target`, default the account's). */
export const translateRequestSchema = z
  .object({
    text: text()
      .trim()
      .min(1, 'Nothing to translate')
      .max(TRANSLATE_MAX_CHARS, `A translation takes at most ${TRANSLATE_MAX_CHARS} characters`),
    target: z.enum(UI_LOCALES).optional(),
  })
  .strict();
export type TranslateRequest = z.infer<typeof translateRequestSchema>;

/** `detectedLanguage`: what the translator took the text to be written in (a language code), when it says. */
export type TranslateAnswer = { translatedText: string; target: UiLocale; detectedLanguage: string | null };

export const TRANSLATE_ERR = {
  off: 'Translation is not available on this server.',
  unavailable: 'The translator is not answering right now. Please try again later.',
  tooMany: 'You have asked for many translations in a short time. Wait a minute and try again.',
} as const;
