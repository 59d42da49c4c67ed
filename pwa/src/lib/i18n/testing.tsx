import type { ReactNode } from 'react';
import { setupI18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';

// Outside production builds the macros keep each English message, which Lingui compiles as it renders.
export const english = setupI18n({ locale: 'en', messages: { en: {} } });

/** A component as the tests render it: inside the i18n provider, in English. */
export function inEnglish(node: ReactNode) {
  return <I18nProvider i18n={english}>{node}</I18nProvider>;
}
