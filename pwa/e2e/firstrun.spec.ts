import { expect, test } from './fixtures';
import { baseURL } from '../playwright.config';
import { PHONE, partnerSearching, playFirstRun } from './firstRun';
import { Axe } from './axe';

test.use({ serviceWorkers: 'block' });

test('a new person gets from / to a matched text chat on a phone, a stranger already searching (bench:firstrun times it)', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const partner = await partnerSearching(browser, baseURL);
  const context = await browser.newContext({ ...PHONE, baseURL, serviceWorkers: 'block' });
  const page = await context.newPage();
  page.on('pageerror', (err) => console.error(`[${page.url()}] page error:`, err.message));

  const timing = await playFirstRun(page);
  console.log(
    `first run: ${Math.round(timing.totalMs)} ms (acting ${Math.round(timing.actingMs)}, waiting ${JSON.stringify(timing.waits)})`,
  );
  // The 30 s goal is bench:firstrun's (a quiet machine, several runs); here the path must work.

  // The first "hi" goes both ways.
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill('hi');
  await page.getByRole('button', { name: 'Send' }).tap();
  await expect(partner.getByRole('log').getByRole('listitem').filter({ hasText: 'hi' })).toBeVisible();

  // Touch first: no "press Esc twice" anywhere, and Next is a large button within the thumb's reach.
  await expect(page.getByText(/Esc/)).toHaveCount(0);
  const next = page.getByRole('button', { name: 'Next' });
  const box2 = (await next.boundingBox())!;
  expect(box2.height).toBeGreaterThanOrEqual(48);
  expect(box2.y + box2.height).toBeGreaterThan(844 - 120);
  const axe = await new Axe({ page }).analyze();
  expect(axe.violations, JSON.stringify(axe.violations, null, 2)).toEqual([]);
  await context.close();
  await partner.context().close();
});
