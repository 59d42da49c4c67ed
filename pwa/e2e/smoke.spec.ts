import { expect, test } from './fixtures';

test('the built app is served with its shell and the API beside it', async ({ page, request }) => {
  const health = await request.get('/api/health');
  expect(health.status()).toBe(200);
  await page.goto('/');
  await expect(page).toHaveTitle(/Parley/);
});
