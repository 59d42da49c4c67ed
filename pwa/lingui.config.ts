import { defineConfig } from '@lingui/conf';
import { formatter } from '@lingui/format-po';

/**
 * The interface's languages. Messages are written in English in the code (Lingui macros) and
 * `npm run i18n:extract` collects them into src/locales/<locale>/{shell,pages}.po; the Vite plugin
 * compiles a catalog when the app imports it, so each locale's catalogs are chunks of their own,
 * loaded only for the language shown. The shell (the frame, the landing page, the ways in, shared
 * components) is part of the first download; the other pages' messages load with the first of
 * them (lib/i18n/i18n.ts), keeping the landing page's JavaScript small.
 * en-XA is a pseudo-locale (accented English) that shows any string left out of the catalogs.
 */
export default defineConfig({
  sourceLocale: 'en',
  locales: ['en', 'es', 'pt-BR', 'fr', 'de', 'tr', 'id', 'ar', 'ja', 'en-XA'],
  pseudoLocale: 'en-XA',
  fallbackLocales: { 'en-XA': 'en', default: 'en' },
  catalogs: [
    {
      path: '<rootDir>/src/locales/{locale}/shell',
      include: [
        '<rootDir>/src/app',
        '<rootDir>/src/store',
        '<rootDir>/src/components',
        '<rootDir>/src/lib',
        '<rootDir>/src/features/landing',
        '<rootDir>/src/features/auth',
      ],
      // The conversation's components belong to the pages that show a conversation; the camera's and
      // microphone's words to the pages that use them.
      exclude: ['**/*.test.ts', '**/*.test.tsx', '<rootDir>/src/components/conversation/**', '<rootDir>/src/lib/media/**'],
    },
    {
      path: '<rootDir>/src/locales/{locale}/pages',
      include: ['<rootDir>/src/features', '<rootDir>/src/realtime', '<rootDir>/src/components/conversation', '<rootDir>/src/lib/media'],
      exclude: ['**/*.test.ts', '**/*.test.tsx', '<rootDir>/src/features/landing/**', '<rootDir>/src/features/auth/**'],
    },
  ],
  orderBy: 'message',
  // Origins without line numbers: a line moved elsewhere in a file changes no catalog.
  format: formatter({ lineNumbers: false }),
});
