/**
 * The interface languages Parley ships (BCP 47 tags), English first as the source language. The
 * PWA names and loads them; the account keeps a person's choice for what reaches them while the
 * app is closed (pushes, emails).
 */
export const UI_LOCALES = ['en', 'es', 'pt-BR', 'fr', 'de', 'tr', 'id', 'ar', 'ja'] as const;
export type UiLocale = (typeof UI_LOCALES)[number];
