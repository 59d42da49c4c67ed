import { expect, test, type Page } from './fixtures';
import { Axe } from './axe';

test.use({ serviceWorkers: 'block' });

const form = (page: Page) => page.getByRole('form', { name: 'Send us a message' });

test('the contact form shows a clear error per field and focuses the first', async ({ page }) => {
  await page.goto('/contact-support');
  await page.getByLabel('Your email').fill('not-an-email');
  await page.getByLabel('Message', { exact: true }).fill('short');
  await page.getByRole('button', { name: 'Send message' }).click();
  await expect(page.getByLabel('Your email')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByLabel('Your email')).toBeFocused();
  await expect(form(page).getByText('Enter a valid email address')).toBeVisible();
  await expect(form(page).getByText('Choose a topic', { exact: true }).last()).toBeVisible();
  await expect(form(page).getByText('Tell us a little more (at least 10 characters)')).toBeVisible();
  // Editing a field clears its message.
  await page.getByLabel('Your email').fill('ada@example.com');
  await expect(form(page).getByText('Enter a valid email address')).toBeHidden();
});

test('a valid request is stored by POST /api/support and confirmed', async ({ page }) => {
  await page.goto('/contact-support');
  await page.getByLabel('Your email').fill('ada@example.com');
  await page.getByLabel('Topic').selectOption('safety');
  await page.getByLabel('Message', { exact: true }).fill('Someone kept messaging me after I skipped them.');
  const response = page.waitForResponse((r) => r.url().endsWith('/api/support') && r.request().method() === 'POST');
  await page.getByRole('button', { name: 'Send message' }).click();
  const res = await response;
  expect(res.status()).toBe(201);
  expect(res.request().postDataJSON()).toEqual({
    email: 'ada@example.com',
    topic: 'safety',
    message: 'Someone kept messaging me after I skipped them.',
  });
  expect(((await res.json()) as { id: string }).id).toMatch(/^[0-9a-f-]{36}$/);
  // The toast confirms, and so does the status line under the form; the form is cleared.
  await expect(page.getByRole('region', { name: /Notifications/ }).getByText('Message sent')).toBeVisible();
  await expect(form(page).getByRole('status')).toHaveText('Thank you, your message is with our team. We will reply to ada@example.com.');
  await expect(page.getByLabel('Message', { exact: true })).toHaveValue('');
});

test('a rate-limited or unreachable server is explained, and the draft kept', async ({ page }) => {
  await page.goto('/contact-support');
  await page.getByLabel('Your email').fill('ada@example.com');
  await page.getByLabel('Topic').selectOption('bug');
  await page.getByLabel('Message', { exact: true }).fill('The video button does nothing on my phone.');

  await page.route('**/api/support', (route) =>
    route.fulfill({
      status: 429,
      headers: { 'retry-after': '3600' },
      json: { message: 'Please wait a while before sending another.', code: 'rate_limited' },
    }),
  );
  await page.getByRole('button', { name: 'Send message' }).click();
  await expect(form(page).getByRole('alert')).toHaveText('Please wait a while before sending another.');

  await page.unroute('**/api/support');
  await page.route('**/api/support', (route) => route.abort('connectionrefused'));
  await page.getByRole('button', { name: 'Send message' }).click();
  await expect(form(page).getByRole('alert')).toHaveText(/^No Server Response/);
  await expect(page.getByLabel('Message', { exact: true })).toHaveValue('The video button does nothing on my phone.');
});

test('/contact-support has no axe violations, before and after errors are shown', async ({ page }) => {
  await page.goto('/contact-support');
  await expect(page.getByRole('heading', { level: 1, name: 'Contact support' })).toBeVisible();
  expect((await new Axe({ page }).analyze()).violations).toEqual([]);
  await page.getByRole('button', { name: 'Send message' }).click();
  await expect(page.getByLabel('Your email')).toHaveAttribute('aria-invalid', 'true');
  const results = await new Axe({ page }).analyze();
  expect(results.violations, JSON.stringify(results.violations, null, 2)).toEqual([]);
});

test('on a phone the confirmation toast leaves the submit button uncovered', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/contact-support');
  await page.getByLabel('Your email').fill('ada@example.com');
  await page.getByLabel('Topic').selectOption('bug');
  await page.getByLabel('Message', { exact: true }).fill('The video button does nothing on my phone.');
  const submit = page.getByRole('button', { name: 'Send message' });
  await submit.scrollIntoViewIfNeeded();
  await submit.click();
  const toast = page
    .getByRole('region', { name: /Notifications/ })
    .locator('li')
    .filter({ hasText: 'Message sent' });
  await expect(toast).toBeVisible();
  const t = (await toast.boundingBox())!;
  const b = (await submit.boundingBox())!;
  const overlap = t.x < b.x + b.width && b.x < t.x + t.width && t.y < b.y + b.height && b.y < t.y + t.height;
  expect(overlap, `toast ${JSON.stringify(t)} over the button ${JSON.stringify(b)}`).toBe(false);
  // The button is what a tap in its middle reaches.
  expect(
    await submit.evaluate((el) => {
      const r = el.getBoundingClientRect();
      return document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2) === el;
    }),
  ).toBe(true);
  const axe = await new Axe({ page }).analyze();
  expect(axe.violations, JSON.stringify(axe.violations, null, 2)).toEqual([]);
});
