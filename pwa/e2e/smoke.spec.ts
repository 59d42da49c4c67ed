import { expect, test, openLogin } from './fixtures';
import { Axe } from './axe';

test('the built app is served with its shell and the API beside it', async ({ page, request }) => {
  const health = await request.get('/api/health');
  expect(health.status()).toBe(200);
  await page.goto('/');
  await expect(page).toHaveTitle(/Parley/);
});

test("the suite's accessibility check reports what it finds, on the whole page and inside a part of it", async ({ page }) => {
  await page.setContent(
    '<html lang="en"><body><main><h1>Check</h1><img src="data:," id="bare"><section id="fine"><p>ok</p></section></main></body></html>',
  );
  const all = await new Axe({ page }).analyze();
  expect(all.violations.map((v) => v.id)).toContain('image-alt');
  // Run again on the same document (axe already there), limited to a part without the picture.
  expect((await new Axe({ page }).include('#fine').analyze()).violations).toEqual([]);
});

test('the sign-in page raises no browser issue, such as a script the CSP refused', async ({ page }) => {
  const cdp = await page.context().newCDPSession(page);
  const issues: unknown[] = [];
  cdp.on('Audits.issueAdded', (e) => issues.push(e.issue));
  await cdp.send('Audits.enable');
  await openLogin(page);
  await page.getByLabel('Username', { exact: true }).fill('nobody1');
  // Everything the page loads by itself (the contract's schemas among it) has run.
  await page.waitForLoadState('networkidle');
  expect(issues).toEqual([]);
});
