import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import reactRefresh from 'eslint-plugin-react-refresh';
import globals from 'globals';
import boundaries from 'eslint-plugin-boundaries';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'api/src/platform/i18n/locales/**',
      'data/**',
      'bench/results/**',
      '**/test-results/**',
      '**/dev-dist/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node }, ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
    },
  },
  {
    files: ['pwa/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks, 'react-refresh': reactRefresh },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'react-refresh/only-export-components': ['warn', { allowConstantExport: true }],
    },
  },
  {
    // The PWA's layers, checked on resolved paths: features never import each other nor the app
    // (the app composes them: store, router, frame); they reach the server and the state through
    // store/ (the base api their endpoints are injected into, the typed hooks). Shared code
    // (components, lib, realtime) sits below all of them.
    files: ['pwa/src/**/*.{ts,tsx}'],
    plugins: { boundaries },
    settings: {
      'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js'] } },
      'boundaries/elements': [
        { type: 'app', pattern: 'pwa/src/app', partialMatch: false },
        { type: 'store', pattern: 'pwa/src/store', partialMatch: false },
        { type: 'feature', pattern: 'pwa/src/features/*', capture: ['feature'], partialMatch: false },
        { type: 'shared', pattern: 'pwa/src/(components|lib|realtime)', partialMatch: false },
      ],
    },
    rules: {
      'boundaries/dependencies': [
        'error',
        {
          default: 'allow',
          policies: [
            {
              from: { element: { type: 'feature' } },
              disallow: { to: { element: { type: 'feature', captured: { feature: '!{{ from.element.captured.feature }}' } } } },
              message: 'Features do not import each other; share through components/, lib/, realtime/ or the app.',
            },
            {
              from: { element: { type: 'feature' } },
              disallow: { to: { element: { type: 'app' } } },
              message: 'Features do not import the app (it composes them); use store/api and store/hooks.',
            },
            {
              from: { element: { type: 'shared' } },
              disallow: { to: { element: { types: { anyOf: ['feature', 'app', 'store'] } } } },
              message: 'Shared code (components/, lib/, realtime/) does not import features, the store or the app.',
            },
          ],
        },
      ],
    },
  },
  {
    // The server's areas (auth, users, chat, rtc, safety, support, health…), checked on resolved
    // paths: an area imports platform/, db/, realtime/, the room core (rooms/), contract and deps.ts
    // (types of what server.ts hands it), never another area: server.ts wires them. platform/, db/
    // and realtime/ sit below every area; rooms/ is the one conversation engine every kind of room
    // is a policy on, below the areas and above realtime. testing/ composes the server for tests.
    files: ['api/src/**/*.ts'],
    plugins: { boundaries },
    settings: {
      'import/resolver': { node: { extensions: ['.ts', '.js'] } },
      'boundaries/elements': [
        { type: 'testing', pattern: 'api/src/testing', partialMatch: false },
        { type: 'shared', pattern: 'api/src/(platform|db|realtime)', partialMatch: false },
        { type: 'core', pattern: 'api/src/rooms', partialMatch: false },
        { type: 'area', pattern: 'api/src/*', capture: ['area'], partialMatch: false },
      ],
      'boundaries/files': [
        { category: 'test', pattern: '**/*.test.ts' },
        { category: 'root', pattern: 'api/src/{server,main}.ts' },
      ],
    },
    rules: {
      'boundaries/dependencies': [
        'error',
        {
          default: 'allow',
          policies: [
            {
              from: { element: { type: 'area' } },
              disallow: { to: { element: { type: 'area', captured: { area: '!{{ from.element.captured.area }}' } } } },
              message: 'Areas do not import each other: server.ts wires them, and deps.ts carries the types they share.',
            },
            {
              from: { element: { type: 'core' } },
              disallow: { to: { element: { type: 'area' } } },
              message: 'The room core (rooms/) sits below the areas: kinds plug into it as policies, it never imports them.',
            },
            {
              from: { element: { type: 'shared' } },
              disallow: { to: { element: { type: 'core' } } },
              message: 'platform/, db/ and realtime/ sit below the room core and never import it.',
            },
            {
              from: { element: { types: { anyOf: ['area', 'shared', 'core'] } } },
              disallow: { to: { file: { categories: 'root' } } },
              message: 'Only the composition root (server.ts) composes areas; take what it hands over through deps.ts.',
            },
            {
              from: { element: { type: 'shared' } },
              disallow: { to: { element: { type: 'area' } } },
              message: 'platform/, db/ and realtime/ sit below the areas and never import them.',
            },
            {
              from: { element: { types: { anyOf: ['area', 'shared', 'core'] } } },
              disallow: { to: { element: { type: 'testing' } } },
              message: 'testing/ composes the server for tests only.',
            },
            { from: { file: { categories: 'test' } }, allow: { to: { element: { type: 'testing' } } } },
          ],
        },
      ],
    },
  },
);
