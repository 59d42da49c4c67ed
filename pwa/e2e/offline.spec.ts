import { expect, test, type Page } from './fixtures';
import { postSignup } from './signup';
import { expectAxeCleanOnBothScreens } from './axe';

// This spec needs the real service worker (the others block it).
test.use({ serviceWorkers: 'allow' });

const uniqueName = (prefix: string) => `${prefix}${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`.slice(0, 20);

async function waitForServiceWorkerControl(page: Page) {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
}

test('after a first visit the app opens offline: landing, legal pages, the dashboard with saved state', async ({ page, context }) => {
  await page.goto('/');
  await waitForServiceWorkerControl(page);

  const username = uniqueName('offline');
  const res = await postSignup(page.request, {
    data: { username, password: 'a good long password', age: 31, gender: 'male' },
  });
  expect(res.status()).toBe(201);
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { name: username })).toBeVisible();

  await page.goto('/');
  await context.setOffline(true);

  await page.reload();
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
  await expect(page.getByRole('link', { name: 'Contact us' })).toBeVisible();

  await page.goto('/privacy-policy');
  await expect(page.getByRole('heading', { level: 1, name: /Privacy/ })).toBeVisible();

  await page.goto('/terms-of-service');
  await expect(page.getByRole('heading', { level: 1, name: /Terms/ })).toBeVisible();

  await page.goto('/dashboard');
  await expect(page.getByText('You are offline.')).toBeVisible();
  // The session cannot be checked offline; the signed-in state saved on this device is shown, all of
  // it: the name, and the ways in as a member, never "Log in" beside the greeting.
  await expect(page.getByRole('heading', { name: username })).toBeVisible();
  await expect(page.getByText(/Log in/)).toHaveCount(0);
  await expect(page.getByRole('link', { name: /Log in/ })).toHaveCount(0);
  await expect(page.getByRole('link', { name: /Start a text chat/ })).toHaveAttribute('href', '/textchat?start=1');
  // What could not be read says so: no empty lists that are not known to be empty.
  await expect(page.getByTestId('dashboard-unread-messages').getByText(/Could not be loaded/)).toBeVisible();
  await expect(page.getByText(/No unread messages|Nobody yet/)).toHaveCount(0);
  await expectAxeCleanOnBothScreens(page);
});

test('a signed-in screen opened offline shows the saved state and recovers by itself when back online', async ({ page, context }) => {
  await page.goto('/');
  await waitForServiceWorkerControl(page);
  const username = uniqueName('retry');
  const res = await postSignup(page.request, {
    data: { username, password: 'a good long password', age: 29, gender: 'female' },
  });
  expect(res.status()).toBe(201);
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { name: username })).toBeVisible();

  await context.setOffline(true);
  await page.goto('/textchat');
  await expect(page.getByText('You are offline.')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'This page needs a connection' })).toBeVisible();
  await expect(page.getByText(username)).toBeVisible();

  await context.setOffline(false);
  await expect(page.getByRole('heading', { name: 'This page needs a connection' })).toBeHidden();
  await expect(page.getByText('You are offline.')).toBeHidden();
  await expect(page).toHaveURL(/\/textchat$/);

  // Losing the connection while signed in keeps the screen and says so.
  await context.setOffline(true);
  await expect(page.getByText('You are offline.')).toBeVisible();
  await expect(page).toHaveURL(/\/textchat$/);
  await context.setOffline(false);
  await expect(page.getByText('You are offline.')).toBeHidden();
});

test('API answers are never cached by the service worker', async ({ page }) => {
  await page.goto('/');
  await waitForServiceWorkerControl(page);
  await postSignup(page.request, {
    data: { username: uniqueName('nocache'), password: 'a good long password', age: 22, gender: 'other' },
  });
  await page.goto('/dashboard');
  await page.waitForLoadState('networkidle');
  const cachedApiUrls = await page.evaluate(async () => {
    const urls: string[] = [];
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      for (const req of await cache.keys()) if (new URL(req.url).pathname.startsWith('/api')) urls.push(req.url);
    }
    return urls;
  });
  expect(cachedApiUrls).toEqual([]);
});
