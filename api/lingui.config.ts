import { defineConfig } from '@lingui/conf';
import { formatter } from '@lingui/format-po';

/**
 * The server's words: what reaches a person while the app is closed (pushes, emails) and the
 * notifications it stores, written in their account's language. Messages are plain descriptors
 * with explicit ids in the code (`/*i18n*\/ { id, message }`: the server runs without a macro
 * transform); `npm run i18n:extract -w api` collects them into src/platform/i18n/locales/<locale>/messages.po
 * and `npm run i18n:compile -w api` compiles those into the messages.json files the server reads,
 * each language on its first use.
 */
export default defineConfig({
  sourceLocale: 'en',
  locales: ['en', 'es', 'pt-BR', 'fr', 'de', 'tr', 'id', 'ar', 'ja'],
  fallbackLocales: { default: 'en' },
  catalogs: [
    {
      path: '<rootDir>/src/platform/i18n/locales/{locale}/messages',
      include: ['<rootDir>/src'],
      exclude: ['**/*.test.ts', '<rootDir>/src/platform/i18n/locales/**'],
    },
  ],
  compileNamespace: 'json',
  orderBy: 'messageId',
  format: formatter({ lineNumbers: false }),
});
