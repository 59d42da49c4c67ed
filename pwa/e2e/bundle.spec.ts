import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { expect, test } from './fixtures';
import { LOCALES } from '../src/lib/i18n/locales.ts';
import { chunkWith, distDir, gzipBytes, landingScripts, modulesOf, readReport } from './bundle';

/**
 * The landing page's JavaScript, checked on the build the suite runs against (npm run build):
 * bench/lighthouse.ts's goal, ≤ 100 kB gzip (level 9) for every script `/` downloads, in every
 * language, counted from the build's chunk report and confirmed in the browser.
 */
const LANDING_JS_GZIP_BYTES = 100 * 1000;
/** What only the app needs (main.tsx loads it when a landing link is followed). */
const APP_ONLY = [
  'src/app/start.tsx',
  'react-router',
  'react-router-dom',
  '@reduxjs/toolkit',
  'redux',
  'react-redux',
  'redux-persist',
  'zod',
  'socket.io-client',
  'engine.io-client',
  '@radix-ui/react-toast',
];

test.use({ serviceWorkers: 'block' });

test('the production build runs React 19, not Preact', () => {
  const report = readReport();
  const modules = new Set(report.chunks.flatMap((c) => c.modules));
  expect(modules).toContain('react-dom');
  expect([...modules].filter((m) => m === 'preact' || m.startsWith('preact/'))).toEqual([]);
  const pkg = JSON.parse(readFileSync(path.join(distDir, '../package.json'), 'utf8')) as { dependencies: Record<string, string> };
  if (distDir.endsWith(`${path.sep}pwa${path.sep}dist`)) expect(Object.keys(pkg.dependencies)).not.toContain('preact');
  // react-dom's production client: its error codes point at react.dev, and elements carry React 19's tag.
  const landing = [...landingScripts(report, 'en')].map((f) => readFileSync(path.join(distDir, f), 'utf8')).join('\n');
  expect(landing).toContain('react.transitional.element');
  expect(landing).toContain('https://react.dev/errors/');
});

test('the landing page’s JavaScript is at most 100 kB gzip in every language, without the app', () => {
  const report = readReport();
  for (const { code } of LOCALES) {
    const files = landingScripts(report, code);
    const bytes = [...files].reduce((sum, f) => sum + gzipBytes(f), 0);
    expect(bytes, `${code}: ${[...files].join(', ')}`).toBeLessThanOrEqual(LANDING_JS_GZIP_BYTES);
    const modules = modulesOf(report, files);
    expect(
      APP_ONLY.filter((m) => modules.has(m)),
      code,
    ).toEqual([]);
    // Only the visitor's language: no other locale's catalog, and not the pages' messages.
    const catalogs = [...modules].filter((m) => m.startsWith('src/locales/'));
    expect(catalogs, code).toEqual([`src/locales/${code}/shell.po`]);
  }
});

// In a browser: the default, a regional tag, a right-to-left and a non-Latin language. The choice of
// scripts is the same code for every language; the sizes of all of them are checked above.
const BROWSER_LOCALES = ['en', 'pt-BR', 'ar', 'ja'];

test.describe('in the browser', () => {
  for (const code of BROWSER_LOCALES) {
    test(`a visitor in ${code} downloads only the landing page’s scripts, then the app from a link`, async ({ browser, baseURL }) => {
      const context = await browser.newContext({ locale: code, baseURL, serviceWorkers: 'block' });
      const page = await context.newPage();
      const scripts = new Map<string, number>();
      page.on('response', (res) => {
        if (res.request().resourceType() !== 'script') return;
        const file = new URL(res.url()).pathname.slice(1);
        void res.body().then(
          (body) => scripts.set(file, gzipSync(body, { level: 9 }).length),
          () => undefined,
        );
      });
      await page.goto('/', { waitUntil: 'networkidle' });
      await expect(page.locator('html')).toHaveAttribute('lang', code);
      const expected = landingScripts(readReport(), code);
      expect([...scripts.keys()].filter((f) => !expected.has(f))).toEqual([]);
      expect([...scripts.values()].reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(LANDING_JS_GZIP_BYTES);

      // Following a link loads the app, which opens that page in place.
      await page.locator('main a[href="/login"]').click();
      await expect(page).toHaveURL(/\/login$/);
      await expect(page.locator('form input[type="password"]')).toBeVisible();
      expect([...scripts.keys()]).toContain(chunkWith(readReport(), 'src/app/start.tsx').file);
      await context.close();
    });
  }
});
