import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type Browser, type Page } from './fixtures';
import { startOwnServer } from './ownServer';
import { messageItem, send, signUp, uniqueName } from './people';
import { untranslated } from './untranslated';

/**
 * Translate on a stranger's message, against a server of this spec's own whose TRANSLATE_URL is a
 * local stand-in speaking LibreTranslate's POST /translate; and the text chat in the pseudo-locale.
 */
test.use({ serviceWorkers: 'block' });

let server: Awaited<ReturnType<typeof startOwnServer>> | undefined;
let translator: http.Server;
const asked: Array<{ q: string; target: string; source: string }> = [];

test.beforeAll(async () => {
  translator = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { q: string; target: string; source: string };
      asked.push(body);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          translatedText: body.q === '¿De dónde eres?' ? 'Where are you from?' : `[${body.target}] ${body.q}`,
          detectedLanguage: { language: 'es', confidence: 90 },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => translator.listen(0, '127.0.0.1', resolve));
  server = await startOwnServer(6, { TRANSLATE_URL: `http://127.0.0.1:${(translator.address() as AddressInfo).port}` });
});
test.afterAll(async () => {
  await server?.stop();
  translator?.close();
});

async function chatter(browser: Browser, base: string, prefix: string, pseudo = false): Promise<{ page: Page; name: string }> {
  const context = await browser.newContext({
    baseURL: base,
    serviceWorkers: 'block',
    locale: 'en-US',
    viewport: { width: 390, height: 800 },
    hasTouch: true,
  });
  const page = await context.newPage();
  if (pseudo) await page.addInitScript(() => localStorage.setItem('parley-locale', 'en-XA'));
  const name = uniqueName(prefix);
  await signUp(page, name);
  await page.goto('/textchat');
  await expect(page.getByTestId('online-count')).toBeVisible({ timeout: 30_000 });
  return { page, name };
}

test("a stranger's message is translated with one tap, and only then sent to the translator", async ({ browser }) => {
  // Two sign-ups (each with its proof of work) and a match: more than the default minute on a busy machine.
  test.setTimeout(150_000);
  const [a, b] = await Promise.all([chatter(browser, server!.url, 'trA'), chatter(browser, server!.url, 'trB')]);
  await a.page.getByRole('button', { name: 'Start', exact: true }).click();
  await b.page.getByRole('button', { name: 'Start', exact: true }).click();
  await expect(b.page.getByRole('region', { name: 'Your chat partner' })).toBeVisible({ timeout: 30_000 });
  await send(a.page, '¿De dónde eres?');
  const theirs = messageItem(b.page, '¿De dónde eres?');
  await expect(theirs).toBeVisible();
  // Nothing goes to the translator until someone asks; never for one's own message.
  expect(asked).toEqual([]);
  await expect(messageItem(a.page, '¿De dónde eres?').getByRole('button', { name: 'Translate' })).toHaveCount(0);
  await theirs.getByRole('button', { name: 'Translate' }).click();
  await expect(theirs.getByTestId('translation')).toContainText('Where are you from?');
  await expect(theirs.getByTestId('translation').locator('[lang="en"]')).toHaveText('Where are you from?');
  expect(asked).toEqual([expect.objectContaining({ q: '¿De dónde eres?', target: 'en', source: 'auto' })]);
  await theirs.getByRole('button', { name: 'Hide translation' }).click();
  await expect(theirs.getByTestId('translation')).toHaveCount(0);
  expect(asked).toHaveLength(1);
});

test('the text chat and the video chat lobby have no untranslated text in the pseudo-locale, in a chat too', async ({ browser }) => {
  // The workers' shared server has no translator: no Translate button either.
  const base = test.info().project.use.baseURL!;
  const [a, b] = await Promise.all([chatter(browser, base, 'psA', true), chatter(browser, base, 'psB', true)]);
  await a.page.getByRole('button', { name: 'Śţàŕţ', exact: true }).click();
  await b.page.getByRole('button', { name: 'Śţàŕţ', exact: true }).click();
  // Matched: the conversation is named after the partner.
  await expect(a.page.getByRole('log')).toHaveAttribute('aria-label', new RegExp(b.name), { timeout: 30_000 });
  const box = a.page.getByRole('textbox', { name: 'Ḿēśśàĝē' });
  await box.fill('hello there');
  await box.press('Enter');
  await expect(messageItem(b.page, 'hello there')).toBeVisible();
  await expect(messageItem(b.page, 'hello there').getByRole('button', { name: 'Ţŕàńśĺàţē' })).toHaveCount(0);
  // Language names come from Intl (the partner card: "Speaks English"), which has no pseudo-locale.
  const data = [a.name, b.name, 'hello there', 'English'];
  for (const p of [a.page, b.page]) await expect.poll(() => untranslated(p, data)).toEqual([]);
  // Escape once: the hint to press it again.
  await a.page.keyboard.press('Escape');
  await expect(a.page.locator('div[aria-live="polite"] > p')).toBeVisible();
  expect(await untranslated(a.page, data)).toEqual([]);
  await b.page.goto('/videochat');
  await expect(b.page.locator('html')).toHaveAttribute('lang', 'en-XA');
  await expect(b.page.getByRole('heading', { level: 1 })).toBeVisible({ timeout: 30_000 });
  await expect.poll(() => untranslated(b.page, data)).toEqual([]);
});
