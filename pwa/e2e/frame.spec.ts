import { expect, test, type Page } from '@playwright/test';

// page.route must see every request; the service worker has its own spec (offline).
test.use({ serviceWorkers: 'block' });

const signedInRoutes = [
  '/textchat',
  '/videochat',
  '/groupchat',
  '/groupchat/room-1',
  '/livestream',
  '/livestream/stream-1',
  '/settingboard',
  '/profile',
  '/premium-membership',
  '/rules',
  '/donate',
  '/users/someone',
  '/missions',
  '/store',
];
const publicRoutes = ['/', '/login', '/dashboard', '/createaccount', '/backgroundimage', '/not-authorized', '/contact-support', '/privacy-policy', '/terms-of-service', '/payment/success'];

const uniqueName = (prefix: string) => `${prefix}${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`.slice(0, 20);

/** A real account through the real API; the refresh cookie lands in the page's browser context. */
async function signUp(page: Page, username = uniqueName('frame')) {
  const res = await page.request.post('/api/auth/signup', { data: { username, password: 'a good long password', age: 27, gender: 'other' } });
  expect(res.status(), await res.text()).toBe(201);
  return username;
}

test('every signed-in route sends an anonymous visitor to /login', async ({ page }) => {
  for (const path of signedInRoutes) {
    await page.goto(path);
    await expect(page, `guard of ${path}`).toHaveURL(/\/login$/);
    await expect(page.getByRole('heading', { name: 'Login' })).toBeVisible();
  }
});

test('public routes open without signing in', async ({ page }) => {
  for (const path of publicRoutes) {
    await page.goto(path);
    await expect(page.locator('main').first(), `content of ${path}`).toBeVisible();
    expect(new URL(page.url()).pathname, `no redirect from ${path}`).toBe(path);
  }
});

test('a signed-in user opens every signed-in route', async ({ page }) => {
  await signUp(page);
  for (const path of signedInRoutes) {
    await page.goto(path);
    await expect(page.locator('main').first(), `content of ${path}`).toBeVisible();
    expect(new URL(page.url()).pathname, `stays on ${path}`).toBe(path);
  }
  // Features of later issues say so honestly.
  await page.goto('/missions');
  await expect(page.getByRole('heading', { name: 'Missions is not available yet' })).toBeVisible();
});

test('after signing in, the guard returns the user to the page they asked for', async ({ page }) => {
  const username = uniqueName('back');
  await page.request.post('/api/auth/signup', { data: { username, password: 'a good long password', age: 30, gender: 'female' } });
  await page.request.post('/api/auth/logout');
  await page.context().clearCookies();
  await page.goto('/groupchat/room-9?tab=people');
  await expect(page).toHaveURL(/\/login$/);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill('a good long password');
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page).toHaveURL(/\/groupchat\/room-9\?tab=people$/);
});

test('a username of None counts as signed out', async ({ page }) => {
  const res = await page.request.post('/api/auth/signup', { data: { username: 'None', password: 'a good long password', age: 40, gender: 'male' } });
  expect([201, 409]).toContain(res.status());
  if (res.status() === 409) {
    const login = await page.request.post('/api/auth/login', { data: { username: 'None', password: 'a good long password' } });
    expect(login.status()).toBe(200);
  }
  await page.goto('/textchat');
  await expect(page).toHaveURL(/\/login$/);
});

test('unknown paths show the 404 page with a way home', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page.getByRole('heading', { name: /couldn.t find that page/ })).toBeVisible();
  await expect(page).toHaveTitle('Page not found · Parley');
  await page.getByRole('link', { name: 'Back to the home page' }).click();
  await expect(page).toHaveURL(/\/$/);
});

test('lazy pages load behind the full-screen spinner; landing and login are in the first download', async ({ page }) => {
  const lazyChunks: string[] = [];
  page.on('request', (r) => {
    if (/\/assets\/(LandingPage|LoginPage)-/.test(r.url())) lazyChunks.push(r.url());
  });
  await page.goto('/');
  await page.goto('/login');
  expect(lazyChunks).toEqual([]);

  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  await page.route(/\/assets\/DashboardPage-.*\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/dashboard', { waitUntil: 'commit' });
  await expect(page.getByText('Loading Content...')).toBeVisible();
  release();
  await expect(page.getByRole('heading', { name: 'Welcome to Parley' })).toBeVisible();
});

test('a page whose code cannot load shows the error page; the next page opens normally', async ({ page }) => {
  await page.route(/\/assets\/PrivacyPolicyPage-.*\.js$/, (route) => route.abort('connectionrefused'));
  await page.goto('/login');
  await page.getByRole('link', { name: 'Privacy Policy' }).click();
  await expect(page.getByRole('heading', { name: 'This page could not open' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Home page' })).toHaveAttribute('href', '/');
  await page.goBack();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('heading', { name: 'Login' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'This page could not open' })).toHaveCount(0);
});

test('the toast area is always present and F8 focuses it', async ({ page }) => {
  await page.goto('/login');
  const region = page.getByRole('region', { name: /Notifications \(F8\)/ });
  await expect(region).toBeAttached();
  await page.keyboard.press('F8');
  expect(await page.evaluate(() => document.activeElement?.closest('[role=region]')?.getAttribute('aria-label'))).toMatch(/Notifications/);
});

test('the dashboard: hub cards, the user, sign-out; anonymous cards lead to sign-in first', async ({ page }) => {
  await page.goto('/dashboard');
  for (const name of ['Text chat', 'Video chat', 'Group chat', 'Live streams']) await expect(page.getByRole('link', { name: new RegExp(name) })).toBeVisible();
  await page.getByRole('link', { name: /Video chat/ }).click();
  await expect(page).toHaveURL(/\/login$/);

  const username = await signUp(page);
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { name: username })).toBeVisible();
  await expect(page.getByRole('img', { name: `${username}'s avatar` })).toBeVisible();
  await expect(page.getByRole('link', { name: /Text chat/ })).toHaveAttribute('href', '/textchat');
  await expect(page.getByRole('link', { name: /Live streams/ })).toHaveAttribute('href', '/livestream');
});
