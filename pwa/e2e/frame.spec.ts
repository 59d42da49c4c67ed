import { expect, test, type Page } from './fixtures';
import { postSignup } from './signup';
import { Axe, expectAxeCleanOnBothScreens } from './axe';

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
  '/donate',
  '/users/someone',
  '/missions',
  '/store',
];
const publicRoutes = [
  '/',
  '/login',
  '/dashboard',
  '/createaccount',
  '/backgroundimage',
  '/not-authorized',
  '/contact-support',
  '/privacy-policy',
  '/terms-of-service',
  '/rules',
  '/payment/success',
];

const uniqueName = (prefix: string) => `${prefix}${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`.slice(0, 20);

/** A real account through the real API; the refresh cookie lands in the page's browser context. */
async function signUp(page: Page, username = uniqueName('frame')) {
  const res = await postSignup(page.request, {
    data: { username, password: 'a good long password', age: 27, gender: 'other' },
  });
  expect(res.status(), await res.text()).toBe(201);
  return username;
}

/**
 * The app's frame (the logo) or a page's own header leading back to the dashboard; a page that
 * fills the screen (the video chat) its own link home: no page is a dead end.
 */
async function expectWayHome(page: Page, path: string) {
  const header = page.getByRole('banner').getByRole('link', { name: /^(Parley|Dashboard)$/ });
  await expect.soft(header.or(page.getByRole('link', { name: 'Dashboard', exact: true })).first(), `way home from ${path}`).toBeVisible();
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
    await expectWayHome(page, path);
  }
});

test('a signed-in user opens every signed-in route', async ({ page }) => {
  // Thirteen full page loads: room for a busy machine.
  test.setTimeout(180_000);
  await signUp(page);
  for (const path of signedInRoutes) {
    await page.goto(path);
    await expect(page.locator('main').first(), `content of ${path}`).toBeVisible();
    expect(new URL(page.url()).pathname, `stays on ${path}`).toBe(path);
    await expectWayHome(page, path);
  }
  // Every route of the specification has its page now.
  await page.goto('/missions');
  await expect(page.getByRole('heading', { name: 'Missions', level: 1 })).toBeVisible();
});

test('after signing in, the guard returns the user to the page they asked for', async ({ page }) => {
  const username = uniqueName('back');
  await postSignup(page.request, { data: { username, password: 'a good long password', age: 30, gender: 'female' } });
  await page.request.post('/api/auth/logout');
  await page.context().clearCookies();
  await page.goto('/groupchat/room-9?tab=people');
  await expect(page).toHaveURL(/\/login$/);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill('a good long password');
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page).toHaveURL(/\/groupchat\/room-9\?tab=people$/);
});

test('the username None, in any case, cannot be taken: the guard reads it as signed out', async ({ page }) => {
  for (const username of ['None', 'none', 'NONE', 'nOnE']) {
    const res = await postSignup(page.request, {
      data: { username, password: 'a good long password', age: 40, gender: 'male' },
    });
    expect(res.status()).toBe(400);
    expect(((await res.json()) as { fields: Record<string, string> }).fields.username).toBe('This username is reserved; choose another');
  }
});

test("a first visit to a path with a trailing slash or a dot opens the app, not the server's plain Not Found", async ({ page }) => {
  for (const path of ['/login/', '/createaccount/']) {
    const res = await page.goto(path);
    expect(res!.status()).toBe(200);
    await expect(page.getByRole('main').getByRole('heading', { level: 1 })).toBeVisible();
  }
  await page.goto('/dashboard/');
  await expect(page.getByRole('heading', { name: 'Welcome to Parley', exact: true })).toBeVisible();
  // An unknown path with a dot is the app's own 404 page.
  await page.goto('/some.page');
  await expect(page.getByRole('heading', { name: /couldn.t find that page/ })).toBeVisible();
});

test('every page keeps a header with a way home, on both screen sizes', async ({ page }) => {
  // Six page loads with two axe runs each: room for a busy machine.
  test.setTimeout(180_000);
  await signUp(page);
  for (const path of ['/groupchat', '/groupchat/room-1', '/missions', '/payment/success', '/backgroundimage', '/no/such/page']) {
    await page.goto(path);
    for (const viewport of [
      { width: 1280, height: 800 },
      { width: 390, height: 844 },
    ]) {
      await page.setViewportSize(viewport);
      await expectWayHome(page, `${path} at ${viewport.width} px`);
      const axe = await new Axe({ page }).analyze();
      expect(axe.violations, `${path} at ${viewport.width} px: ${JSON.stringify(axe.violations, null, 2)}`).toEqual([]);
    }
  }
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
  await page.route(/\/assets\/Dashboard-.*\.js$/, async (route) => {
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

test('the dashboard: a visitor is shown the way in; a member a greeting, who is online, the two starts, honest sections', async ({
  page,
  browser,
}) => {
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { name: 'Welcome to Parley', exact: true })).toBeVisible();
  await page.getByRole('link', { name: /Start a video chat/ }).click();
  await expect(page).toHaveURL(/\/createaccount$/);

  const username = await signUp(page);
  await page.goto('/dashboard');
  // A first visit on this device is greeted as one; the next is a return.
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Welcome to Parley, ${username}`);
  await expect(page.getByRole('img', { name: `${username}'s avatar` })).toBeVisible();
  await expect(page.getByRole('link', { name: /Start a text chat/ })).toHaveAttribute('href', '/textchat?start=1');
  await expect(page.getByRole('link', { name: /Start a video chat/ })).toHaveAttribute('href', '/videochat');
  // Each feature's section, with its own content or empty state (none says "Coming soon" any more).
  for (const [id, title] of [
    ['friends-online', 'Friends online'],
    ['unread-messages', 'Unread messages'],
    ['recent-partners', 'People you met'],
    ['missions', 'Missions'],
    ['live-now', 'Live now'],
  ]) {
    const section = page.getByRole('region', { name: title });
    await expect(section).toHaveAttribute('data-testid', `dashboard-${id}`);
    await expect(section.getByText('Coming soon')).toHaveCount(0);
  }
  await expect(page.getByTestId('dashboard-missions').getByRole('link', { name: 'Missions' })).toBeVisible();
  await expect(page.getByTestId('dashboard-live-now').getByRole('link', { name: 'All streams, or go live' })).toBeVisible();

  // Signed in, the user is online on the dashboard too: the count comes over the realtime connection.
  await expect(page.getByTestId('dashboard-online')).toHaveText(/Only you are online right now|\d+ people online now/);
  const other = await browser.newContext({ serviceWorkers: 'block' });
  const otherPage = await other.newPage();
  await signUp(otherPage);
  const before = await page.evaluate(() => document.querySelector('[data-testid="dashboard-online"]')!.textContent);
  await otherPage.goto('/dashboard');
  await expect(page.getByTestId('dashboard-online')).not.toHaveText(before!);
  await other.close();

  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Welcome back, ${username}`);
  await expectAxeCleanOnBothScreens(page);
});

test('a signed-in user is online on any page, not only in the chats: others count them', async ({ page, browser }) => {
  const other = await browser.newContext({ serviceWorkers: 'block' });
  const watcher = await other.newPage();
  await signUp(watcher);
  await watcher.goto('/textchat');
  const count = watcher.getByTestId('online-count');
  await expect(count).not.toHaveText('0');
  const alone = Number(await count.textContent());
  await signUp(page);
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(count).toHaveText(String(alone + 1));
  // A page of information, once this browser is known to have a session: still online.
  await page.goto('/privacy-policy');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.waitForTimeout(500);
  await expect(count).toHaveText(String(alone + 1));
  await page.close();
  await expect(count).toHaveText(String(alone));
  await other.close();
});
