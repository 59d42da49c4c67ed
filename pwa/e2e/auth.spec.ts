import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';

test.use({ serviceWorkers: 'block' });

const PASSWORD = 'a good long password';
const uniqueName = (prefix: string) => `${prefix}${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`.slice(0, 20);

async function createAccount(page: Page, username = uniqueName('auth')) {
  const res = await page.request.post('/api/auth/signup', { data: { username, password: PASSWORD, age: 33, gender: 'female' } });
  expect(res.status(), await res.text()).toBe(201);
  // Signed out again: these tests sign in through the screen.
  await page.request.post('/api/auth/logout');
  await page.context().clearCookies();
  return username;
}

async function submitLogin(page: Page, username: string, password: string) {
  await page.getByLabel('Username', { exact: true }).fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
}

test.describe('the login screen', () => {
  test('shows exactly what the spec lists', async ({ page }) => {
    await page.goto('/login');
    await expect(page.getByRole('heading', { name: 'Login', level: 1 })).toBeVisible();
    await expect(page).toHaveTitle('Login · Parley');
    await expect(page.getByLabel('Username', { exact: true })).toHaveAttribute('required', '');
    await expect(page.getByLabel('Password')).toHaveAttribute('required', '');
    await expect(page.getByText("Don't have an account?")).toBeVisible();
    await expect(page.getByRole('link', { name: 'Create one here' })).toHaveAttribute('href', '/createaccount');
    await expect(page.getByText('or continue with')).toBeVisible();
    await expect(page.getByText('By clicking continue, you agree to our')).toBeVisible();
    const main = page.getByRole('main');
    await expect(main.getByRole('link', { name: 'Terms of Service' })).toHaveAttribute('href', '/terms-of-service');
    await expect(main.getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute('href', '/privacy-policy');
  });

  test('the Google button sends the browser to /api/auth/google', async ({ page }) => {
    await page.goto('/login');
    const navigation = page.waitForRequest((r) => r.isNavigationRequest() && new URL(r.url()).pathname === '/api/auth/google');
    await page.getByRole('button', { name: 'Google' }).click();
    await navigation;
  });

  test('a Google sign-in that came back with an error says why, until a field is edited', async ({ page }) => {
    await page.goto('/login?error=google_sign_in_failed');
    await expect(page.getByRole('alert')).toHaveText(/^Google sign-in did not complete/);
    await page.getByLabel('Username', { exact: true }).fill('x');
    await expect(page.getByRole('alert')).toHaveText('');
    await page.goto('/login?error=account_suspended');
    await expect(page.getByRole('alert')).toHaveText('This account is suspended. Contact support if you think this is a mistake.');
  });

  test('400: Missing Username or Password (from the server itself)', async ({ page }) => {
    await page.goto('/login');
    // The browser's own required check stops an empty form; remove it to reach the server's 400.
    await page.getByLabel('Password').evaluate((el) => el.removeAttribute('required'));
    await page.getByLabel('Username', { exact: true }).fill('someone');
    await page.getByRole('button', { name: 'Login' }).click();
    await expect(page.getByRole('alert')).toHaveText('Missing Username or Password');
  });

  test('401: Unauthorized, and the message clears when a field is edited', async ({ page }) => {
    const username = await createAccount(page);
    await page.goto('/login');
    await submitLogin(page, username, 'not the password');
    await expect(page.getByRole('alert')).toHaveText('Unauthorized');
    await page.getByLabel('Password').fill('x');
    await expect(page.getByRole('alert')).toHaveText('');
    await submitLogin(page, 'nobody-here', 'whatever123');
    await expect(page.getByRole('alert')).toHaveText('Unauthorized');
    await page.getByLabel('Username', { exact: true }).pressSequentially('z');
    await expect(page.getByRole('alert')).toHaveText('');
  });

  test("another status shows the server's message (429 after repeated failures)", async ({ page }) => {
    const username = await createAccount(page);
    await page.goto('/login');
    let status = 0;
    page.on('response', (r) => {
      if (r.url().endsWith('/api/auth/login')) status = r.status();
    });
    for (let i = 0; i < 6 && status !== 429; i++) {
      await submitLogin(page, username, `wrong password ${i}`);
      await expect(page.getByRole('alert')).not.toHaveText('');
    }
    expect(status).toBe(429);
    await expect(page.getByRole('alert')).toHaveText('Too many sign-in attempts. Wait a few minutes and try again.');
  });

  test('No Server Response when no answer comes back', async ({ page }) => {
    await page.goto('/login');
    await page.route('**/api/auth/login', (route) => route.abort('connectionrefused'));
    await submitLogin(page, 'someone', 'whatever123');
    await expect(page.getByRole('alert')).toHaveText('No Server Response');
  });

  test('only Loading... while the request runs; success clears the fields and opens the dashboard', async ({ page }) => {
    const username = await createAccount(page);
    await page.goto('/login');
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route('**/api/auth/login', async (route) => {
      await held;
      await route.continue();
    });
    await submitLogin(page, username, PASSWORD);
    await expect(page.getByText('Loading...')).toBeVisible();
    await expect(page.getByRole('main').getByRole('textbox')).toHaveCount(0);
    await expect(page.getByRole('main').getByRole('button')).toHaveCount(0);
    release();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole('heading', { name: username })).toBeVisible();
    // A signed-in user opening the login screen again is sent on.
    await page.goto('/login');
    await expect(page).toHaveURL(/\/dashboard$/);
  });
});

test.describe('sign-up', () => {
  test('sign up -> dashboard -> reload (still signed in, nothing in storage) -> sign out', async ({ page }) => {
    const username = uniqueName('new');
    await page.goto('/createaccount');
    await page.getByLabel('Username', { exact: true }).fill(username);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm password').fill(PASSWORD);
    await page.getByLabel('Age', { exact: true }).fill('24');
    await page.getByLabel('Gender', { exact: true }).selectOption('other');
    await page.getByLabel(/I am 18 or older/).check();
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole('heading', { name: username })).toBeVisible();

    // No token anywhere a script could read it: the session comes back through the httpOnly cookie.
    const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }) + document.cookie);
    expect(stored).not.toMatch(/eyJ[\w-]+\.[\w-]+\./);
    await page.reload();
    await expect(page.getByRole('heading', { name: username })).toBeVisible();
    await page.goto('/textchat');
    await expect(page).toHaveURL(/\/textchat$/);

    await page.goto('/dashboard');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page.getByRole('heading', { name: 'Welcome to Parley' })).toBeVisible();
    await expect(page.getByText('Signed out', { exact: true })).toBeVisible();
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Welcome to Parley' })).toBeVisible();
    await page.goto('/textchat');
    await expect(page).toHaveURL(/\/login$/);
  });

  test('signing out in one tab signs out the other tabs of that browser, not another device', async ({ page, browser }) => {
    const username = uniqueName('tabs');
    const res = await page.request.post('/api/auth/signup', { data: { username, password: PASSWORD, age: 33, gender: 'female' } });
    expect(res.status()).toBe(201);
    const otherTab = await page.context().newPage();
    const phone = await browser.newContext({ serviceWorkers: 'block' });
    const phonePage = await phone.newPage();
    expect((await phonePage.request.post('/api/auth/login', { data: { username, password: PASSWORD } })).status()).toBe(200);
    // Each of them online (the count comes over the socket).
    for (const p of [otherTab, phonePage]) {
      await p.goto('/textchat');
      await expect(p.getByTestId('online-count')).not.toHaveText('0');
    }

    await page.goto('/dashboard');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(otherTab.getByText('You were signed out').first()).toBeVisible();
    await expect(otherTab).not.toHaveURL(/\/textchat$/);
    // The tab that signed out says so once, not that it "was signed out" as well.
    await expect(page.getByText('Signed out', { exact: true })).toBeVisible();
    await expect(page.getByText('You were signed out')).toHaveCount(0);
    // The other device has its own sign-in: it stays.
    await phonePage.waitForTimeout(1000);
    await expect(phonePage.getByText('You were signed out')).toHaveCount(0);
    await expect(phonePage).toHaveURL(/\/textchat$/);
    await phone.close();
  });

  test('client-side validation with the server schema, per field', async ({ page }) => {
    await page.goto('/createaccount');
    await page.getByLabel('Username', { exact: true }).fill('a!');
    await page.getByLabel('Password', { exact: true }).fill('short');
    await page.getByLabel('Confirm password').fill('different');
    await page.getByLabel('Age', { exact: true }).fill('16');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByText('Username must be at least 3 characters')).toBeVisible();
    await expect(page.getByText('Password must be at least 8 characters')).toBeVisible();
    await expect(page.getByText('Passwords do not match')).toBeVisible();
    await expect(page.getByText('You must be 18 or older to use Parley')).toBeVisible();
    await expect(page.getByText('Choose your gender')).toBeVisible();
    await expect(page.getByText(/You must agree/)).toBeVisible();
    await expect(page.getByLabel('Username', { exact: true })).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByLabel('Username', { exact: true })).toBeFocused();
  });

  test('server errors beside their field: 409 Username is taken', async ({ page }) => {
    const username = await createAccount(page);
    await page.goto('/createaccount');
    await page.getByLabel('Username', { exact: true }).fill(username.toUpperCase());
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm password').fill(PASSWORD);
    await page.getByLabel('Age', { exact: true }).fill('30');
    await page.getByLabel('Gender', { exact: true }).selectOption('male');
    await page.getByLabel(/I am 18 or older/).check();
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByLabel('Username', { exact: true })).toHaveAccessibleDescription(/Username is taken/);
    await expect(page.getByLabel('Username', { exact: true })).toHaveAttribute('aria-invalid', 'true');
    await expect(page).toHaveURL(/\/createaccount$/);
  });
});

test.describe('confirm account', () => {
  test('an account that gave its age and gender has nothing to confirm: the page opens the dashboard', async ({ page }) => {
    await page.goto('/confirm-account');
    await expect(page).toHaveURL(/\/login$/);

    // Google accounts land here before they have an age; one that signed up with it cannot declare it again.
    const username = uniqueName('conf');
    expect(
      (await page.request.post('/api/auth/signup', { data: { username, password: PASSWORD, age: 30, gender: 'male' } })).status(),
    ).toBe(201);
    await page.goto('/confirm-account');
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole('heading', { name: username })).toBeVisible();
    const token = await page.evaluate(async () => ((await (await fetch('/api/auth/info')).json()) as { accessToken: string }).accessToken);
    const again = await page.request.post('/api/user/verify-info', {
      data: { age: 16, gender: 'female' },
      headers: { authorization: `Bearer ${token}` },
    });
    expect(again.status()).toBe(409);
  });
});

test.describe('accessibility', () => {
  for (const path of ['/login', '/createaccount']) {
    test(`axe finds no violation on ${path}`, async ({ page }) => {
      await page.goto(path);
      await expect(page.getByRole('main')).toBeVisible();
      const results = await new AxeBuilder({ page }).analyze();
      expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
    });
  }

  test('axe finds no violation on the sign-up errors and the dashboard', async ({ page }) => {
    await page.goto('/createaccount');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByText('Username is required')).toBeVisible();
    await expect(page.getByText('Password is required')).toBeVisible();
    expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
    await page.goto('/dashboard');
    await expect(page.getByRole('heading', { name: 'Welcome to Parley' })).toBeVisible();
    expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
  });
});
