import { defineConfig } from '@lingui/conf';
import { formatter } from '@lingui/format-po';

/**
 * The interface's languages. Messages are written in English in the code (Lingui macros) and
 * `npm run i18n:extract` collects them into src/locales/<locale>/messages.po; the Vite plugin
 * compiles a catalog when the app imports it, so each locale is its own lazily loaded chunk.
 * en-XA is a pseudo-locale (accented English) that shows any string left out of the catalogs.
 */
export default defineConfig({
  sourceLocale: 'en',
  locales: ['en', 'es', 'pt-BR', 'fr', 'de', 'tr', 'id', 'ar', 'ja', 'en-XA'],
  pseudoLocale: 'en-XA',
  fallbackLocales: { 'en-XA': 'en', default: 'en' },
  catalogs: [
    {
      path: '<rootDir>/src/locales/{locale}/messages',
      include: ['<rootDir>/src'],
      exclude: ['**/node_modules/**', '**/*.test.ts', '**/*.test.tsx'],
    },
  ],
  orderBy: 'message',
  // Origins without line numbers: a line moved elsewhere in a file changes no catalog.
  format: formatter({ lineNumbers: false }),
});
