import { expect, test, type Page, openLogin } from './fixtures';
import { postLogin, postSignup } from './signup';
import { Axe } from './axe';

test.use({ serviceWorkers: 'block' });

const PASSWORD = 'a good long password';
const uniqueName = (prefix: string) => `${prefix}${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`.slice(0, 20);

async function createAccount(page: Page, username = uniqueName('auth')) {
  const res = await postSignup(page.request, { data: { username, password: PASSWORD, age: 33, gender: 'female' } });
  expect(res.status(), await res.text()).toBe(201);
  // Signed out again: these tests sign in through the screen.
  await page.request.post('/api/auth/logout');
  await page.context().clearCookies();
  return username;
}

/** Fills the sign-up screen with a good password and the terms ticked, and creates the account. */
async function submitSignup(page: Page, username: string, age: string, gender: 'female' | 'male' | 'other') {
  await page.getByLabel('Username', { exact: true }).fill(username);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Age', { exact: true }).fill(age);
  await page.getByLabel('Gender', { exact: true }).selectOption(gender);
  await page.getByLabel(/I am 18 or older/).check();
  await page.getByRole('button', { name: 'Create account' }).click();
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

  test('the Google button sends the browser to /api/auth/google where Google is set up', async ({ page }) => {
    await page.route('**/api/auth/providers', (route) => route.fulfill({ json: { google: true } }));
    await openLogin(page);
    await expect(page.getByText(/not configured/)).toHaveCount(0);
    const navigation = page.waitForRequest((r) => r.isNavigationRequest() && new URL(r.url()).pathname === '/api/auth/google');
    await page.getByRole('button', { name: 'Google' }).click();
    await navigation;
  });

  test('without Google set up the login screen says so at once, and the button stays on the page', async ({ page }) => {
    await openLogin(page);
    const button = page.getByRole('button', { name: 'Google' });
    await expect(button).toHaveAccessibleDescription(/Google sign-in is not configured on this server/);
    let left = false;
    page.on('request', (r) => {
      if (r.isNavigationRequest() && new URL(r.url()).pathname.startsWith('/api/auth/google')) left = true;
    });
    await button.click();
    await expect(page.getByRole('alert')).toHaveText(/Google sign-in is not configured on this server/);
    expect(left).toBe(false);
    await expect(page).toHaveURL(/\/login$/);
  });

  test("Google's not-configured page looks like Parley and leads back to sign-in", async ({ page }) => {
    for (const viewport of [
      { width: 1280, height: 800 },
      { width: 390, height: 844 },
    ]) {
      await page.setViewportSize(viewport);
      const res = await page.goto('/api/auth/google');
      expect(res!.status()).toBe(503);
      await expect(page.getByRole('link', { name: 'Parley' })).toHaveAttribute('href', '/');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Google sign-in is not configured on this server.');
      // Light, like the app, not the dark unbranded page.
      expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(248, 250, 252)');
      const axe = await new Axe({ page }).analyze();
      expect(axe.violations, JSON.stringify(axe.violations, null, 2)).toEqual([]);
      await page.getByRole('link', { name: 'Back to sign in' }).click();
      await expect(page).toHaveURL(/\/login$/);
    }
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
    // The app's form, not the pre-rendered one it replaces (which would bring the attribute back).
    await expect(page).toHaveTitle('Login · Parley');
    // The browser's own required check stops an empty form; remove it to reach the server's 400.
    await page.getByLabel('Password').evaluate((el) => el.removeAttribute('required'));
    await page.getByLabel('Username', { exact: true }).fill('someone');
    await page.getByRole('button', { name: 'Login' }).click();
    await expect(page.getByRole('alert')).toHaveText('Missing Username or Password');
  });

  test('401: Unauthorized, and the message clears when a field is edited', async ({ page }) => {
    const username = await createAccount(page);
    await openLogin(page);
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
    await openLogin(page);
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
    await openLogin(page);
    await page.route('**/api/auth/login', (route) => route.abort('connectionrefused'));
    await submitLogin(page, 'someone', 'whatever123');
    await expect(page.getByRole('alert')).toHaveText('No Server Response');
  });

  test('only Loading... while the request runs; success clears the fields and opens the dashboard', async ({ page }) => {
    const username = await createAccount(page);
    await openLogin(page);
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

test.describe('the pre-rendered login page', () => {
  // The app's code (app/start) held back: what a visitor on a slow connection meets first.
  async function holdApp(page: Page) {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route(/\/assets\/start-[\w-]+\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    return release;
  }

  test('is in the HTML before any script runs; a submit without script puts nothing in the URL and comes back', async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await page.goto('/login');
    await expect(page.getByRole('heading', { name: 'Login', level: 1 })).toBeVisible();
    await page.getByLabel('Username', { exact: true }).fill('someone');
    await page.getByLabel('Password').fill('a secret password');
    const sent = page.waitForRequest((r) => r.isNavigationRequest() && r.method() === 'POST');
    await page.getByLabel('Password').press('Enter');
    expect(new URL((await sent).url()).search).toBe('');
    // The server sends it back to the page, which works once script can run.
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('heading', { name: 'Login', level: 1 })).toBeVisible();
    await context.close();
  });

  test('what was typed and submitted before the app loaded signs in once it has', async ({ page }) => {
    const username = await createAccount(page);
    const release = await holdApp(page);
    await page.goto('/login', { waitUntil: 'domcontentloaded' });
    await page.getByLabel('Username', { exact: true }).fill(username);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByLabel('Password').press('Enter');
    // Nothing left the page yet: the submit waits for the app.
    expect(page.url()).toMatch(/\/login$/);
    release();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole('heading', { name: username })).toBeVisible();
  });

  test('the app takes over with the caret where it was and without moving anything', async ({ page }) => {
    await page.addInitScript(() => {
      const shifts: number[] = [];
      (window as unknown as { shifts: number[] }).shifts = shifts;
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) shifts.push((e as PerformanceEntry & { value: number }).value);
      }).observe({ type: 'layout-shift', buffered: true });
    });
    // Where Google is set up, as on a real server: nothing appears below the button.
    await page.route('**/api/auth/providers', (route) => route.fulfill({ json: { google: true } }));
    for (const viewport of [
      { width: 390, height: 844 },
      { width: 1280, height: 800 },
    ]) {
      await page.setViewportSize(viewport);
      const release = await holdApp(page);
      await page.goto('/login', { waitUntil: 'domcontentloaded' });
      await page.getByLabel('Username', { exact: true }).pressSequentially('half');
      release();
      // The app is running: it names the page (the pre-rendered HTML has the site's title only).
      await expect(page).toHaveTitle('Login · Parley');
      await expect(page.getByLabel('Username', { exact: true })).toBeFocused();
      await expect(page.getByLabel('Username', { exact: true })).toHaveValue('half');
      await page.keyboard.type('way');
      await expect(page.getByLabel('Username', { exact: true })).toHaveValue('halfway');
      await page.waitForTimeout(500);
      expect(await page.evaluate(() => (window as unknown as { shifts: number[] }).shifts), `${viewport.width} px`).toEqual([]);
      await page.unrouteAll({ behavior: 'ignoreErrors' });
      await page.route('**/api/auth/providers', (route) => route.fulfill({ json: { google: true } }));
    }
  });
});

test.describe('sign-up', () => {
  test('sign up -> dashboard -> reload (still signed in, nothing in storage) -> sign out', async ({ page }) => {
    const username = uniqueName('new');
    await page.goto('/createaccount');
    await submitSignup(page, username, '24', 'other');
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
    // Signing out is in the account menu of the app's top bar.
    await page.getByRole('button', { name: 'Your account' }).click();
    await page.getByRole('menuitem', { name: 'Sign out', exact: true }).click();
    // The toast lasts 5 s from the sign-out: looked for first, so a slow render of the next page cannot outlast it.
    await expect(page.getByText('Signed out', { exact: true })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Welcome to Parley', exact: true })).toBeVisible();
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Welcome to Parley', exact: true })).toBeVisible();
    await page.goto('/textchat');
    await expect(page).toHaveURL(/\/login$/);
  });

  test('signing out in one tab signs out the other tabs of that browser, not another device', async ({ page, browser }) => {
    const username = uniqueName('tabs');
    const res = await postSignup(page.request, { data: { username, password: PASSWORD, age: 33, gender: 'female' } });
    expect(res.status()).toBe(201);
    const otherTab = await page.context().newPage();
    const phone = await browser.newContext({ serviceWorkers: 'block' });
    const phonePage = await phone.newPage();
    expect((await postLogin(phonePage.request, { data: { username, password: PASSWORD } })).status()).toBe(200);
    // Each of them online (the count comes over the socket).
    for (const p of [otherTab, phonePage]) {
      await p.goto('/textchat');
      await expect(p.getByTestId('online-count')).not.toHaveText('0');
    }

    await page.goto('/dashboard');
    // Signing out is in the account menu of the app's top bar.
    await page.getByRole('button', { name: 'Your account' }).click();
    await page.getByRole('menuitem', { name: 'Sign out', exact: true }).click();
    // The tab that signed out says so once (checked first: a toast lasts 5 s), not that it "was signed out" as well.
    await expect(page.getByText('Signed out', { exact: true })).toBeVisible();
    await expect(otherTab.getByText('You were signed out').first()).toBeVisible();
    await expect(otherTab).not.toHaveURL(/\/textchat$/);
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
    await page.getByLabel('Age', { exact: true }).fill('16');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByText('Username must be at least 3 characters')).toBeVisible();
    await expect(page.getByText('Password must be at least 8 characters')).toBeVisible();
    await expect(page.getByText('You must be 18 or older to use Parley')).toBeVisible();
    await expect(page.getByText('Choose your gender')).toBeVisible();
    await expect(page.getByText(/You must agree/)).toBeVisible();
    await expect(page.getByLabel('Username', { exact: true })).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByLabel('Username', { exact: true })).toBeFocused();
  });

  test('server errors beside their field: 409 Username is taken', async ({ page }) => {
    const username = await createAccount(page);
    await page.goto('/createaccount');
    await submitSignup(page, username.toUpperCase(), '30', 'male');
    await expect(page.getByLabel('Username', { exact: true })).toHaveAccessibleDescription(/Username is taken/);
    await expect(page.getByLabel('Username', { exact: true })).toHaveAttribute('aria-invalid', 'true');
    await expect(page).toHaveURL(/\/createaccount$/);
    // Free names like it, one tap each; the one picked signs up.
    const suggestions = page.getByRole('list', { name: 'Free names:' }).getByRole('button');
    await expect(suggestions).toHaveCount(3);
    const picked = (await suggestions.first().textContent())!;
    await suggestions.first().click();
    await expect(page.getByLabel('Username', { exact: true })).toHaveValue(picked);
    await expect(page.getByText(`${picked} is free`)).toBeVisible();
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole('heading', { name: picked })).toBeVisible();
  });

  test('one short screen: the password shows on demand, a taken or reserved name is said on leaving the field', async ({ page }) => {
    const taken = await createAccount(page);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/createaccount');
    // Everything up to Create account fits a phone's screen, without a second password to type.
    await expect(page.getByLabel('Confirm password')).toHaveCount(0);
    const create = await page.getByRole('button', { name: 'Create account' }).boundingBox();
    expect(create!.y + create!.height).toBeLessThanOrEqual(844);
    const password = page.getByLabel('Password', { exact: true });
    await password.fill(PASSWORD);
    await expect(password).toHaveAttribute('type', 'password');
    await page.getByRole('button', { name: 'Show password' }).click();
    await expect(password).toHaveAttribute('type', 'text');
    await page.getByRole('button', { name: 'Hide password' }).click();
    await expect(password).toHaveAttribute('type', 'password');

    const name = page.getByLabel('Username', { exact: true });
    await name.fill(taken);
    await password.focus(); // leaving the field checks the name
    await expect(name).toHaveAccessibleDescription(/Username is taken/);
    const free = page.getByRole('list', { name: 'Free names:' }).getByRole('button');
    await expect(free).toHaveCount(3);
    // One tap takes a free name: the field holds it, says it is free, and the password is next.
    const picked = (await free.first().textContent())!;
    await free.first().click();
    await expect(name).toHaveValue(picked);
    await expect(name).toHaveAccessibleDescription(new RegExp(`${picked} is free`));
    await expect(password).toBeFocused();
    await expect(free).toHaveCount(0);
    await name.fill('None');
    await password.focus();
    await expect(name).toHaveAccessibleDescription(/This username is reserved/);
    for (const s of await page.getByRole('list', { name: 'Free names:' }).getByRole('button').allTextContents())
      expect(s.toLowerCase()).not.toBe('none');
    const axe = await new Axe({ page }).analyze();
    expect(axe.violations, JSON.stringify(axe.violations, null, 2)).toEqual([]);
  });

  test('"Start a conversation" leads through sign-up straight into a text chat that is searching', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('link', { name: 'Start a conversation' }).click();
    await submitSignup(page, uniqueName('start'), '41', 'female');
    await expect(page).toHaveURL(/\/textchat$/);
    await expect(page.getByText('Searching...')).toBeVisible();
    // The request to start was used once: a reload does not search again.
    await page.getByRole('button', { name: 'Stop' }).click();
    await page.reload();
    await expect(page.getByRole('button', { name: 'Start', exact: true })).toBeEnabled();
    await expect(page.getByText('Searching...')).toHaveCount(0);
  });

  test('"Start a conversation" tapped on the pre-rendered landing page, before the app took over, still leads into a searching text chat', async ({
    page,
  }) => {
    // The app's script held back: the page is the build's pre-rendered markup, its link a plain one.
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    await page.route(/\/assets\/shell-[\w-]+\.js$/, async (route) => {
      await released;
      // The page that asked may be gone by now (the tap navigated away).
      await route.continue().catch(() => undefined);
    });
    await page.goto('/');
    await expect(page.locator('#root[data-prerendered]')).toBeAttached();
    await page.getByRole('link', { name: 'Start a conversation' }).click();
    await expect(page).toHaveURL(/\/createaccount\?returnTo=/);
    release();
    await submitSignup(page, uniqueName('early'), '33', 'male');
    await expect(page).toHaveURL(/\/textchat$/);
    await expect(page.getByText('Searching...')).toBeVisible();
  });
});

test('a visitor who chose the video chat on the dashboard lands in it once signed up', async ({ page }) => {
  await page.goto('/dashboard');
  await page.getByRole('link', { name: /Start a video chat/ }).click();
  await expect(page).toHaveURL(/\/createaccount$/);
  await submitSignup(page, uniqueName('video'), '36', 'other');
  await expect(page).toHaveURL(/\/videochat$/);
  await expect(page.getByRole('heading', { name: 'Video chat', level: 1 })).toBeAttached();
});

test.describe('confirm account', () => {
  test('a Google account without age and gender confirms them on a page whose background reaches the bottom', async ({ page }) => {
    // A session whose token has no age or gender yet (a Google sign-up): the page reads only the token.
    const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const user = {
      username: 'Jane_Doe',
      userId: '00000000-0000-4000-8000-000000000001',
      avatar: '',
      gender: null,
      age: null,
      isVerified: false,
    };
    const token = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ ...user, premiumUser: 'free tier', exp: Math.floor(Date.now() / 1000) + 900 })}.sig`;
    await page.route('**/api/auth/refresh', (route) => route.fulfill({ json: { accessToken: token } }));
    for (const viewport of [
      { width: 1280, height: 800 },
      { width: 390, height: 844 },
    ]) {
      await page.setViewportSize(viewport);
      await page.goto('/confirm-account');
      await expect(page.getByRole('heading', { name: 'One more step, Jane_Doe' })).toBeVisible();
      // The bottom row of the screen is the page's background, not a white strip under it.
      const bottom = await page.evaluate(() => {
        const el = document.elementFromPoint(5, window.innerHeight - 2)!;
        return { inMain: !!el.closest('main'), color: getComputedStyle(el.closest('main') ?? el).backgroundColor };
      });
      expect(bottom.inMain).toBe(true);
      expect(bottom.color).not.toBe('rgba(0, 0, 0, 0)');
      await expect(page.getByRole('banner').getByRole('link', { name: 'Parley' })).toBeVisible();
      const axe = await new Axe({ page }).analyze();
      expect(axe.violations, JSON.stringify(axe.violations, null, 2)).toEqual([]);
    }
  });

  test('an account that gave its age and gender has nothing to confirm: the page opens the dashboard', async ({ page }) => {
    await page.goto('/confirm-account');
    await expect(page).toHaveURL(/\/login$/);

    // Google accounts land here before they have an age; one that signed up with it cannot declare it again.
    const username = uniqueName('conf');
    expect((await postSignup(page.request, { data: { username, password: PASSWORD, age: 30, gender: 'male' } })).status()).toBe(201);
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
  for (const path of ['/login', '/createaccount', '/contact-support']) {
    test(`axe finds no violation on ${path}, on desktop and on a phone`, async ({ page }) => {
      for (const viewport of [
        { width: 1280, height: 800 },
        { width: 390, height: 844 },
      ]) {
        await page.setViewportSize(viewport);
        await page.goto(path);
        await expect(page.getByRole('main')).toBeVisible();
        if (path === '/login') await expect(page.locator('#google-unavailable')).toBeVisible();
        const results = await new Axe({ page }).analyze();
        expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
      }
    });
  }

  test('axe finds no violation on the sign-up errors and the dashboard', async ({ page }) => {
    await page.goto('/createaccount');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByText('Username is required')).toBeVisible();
    await expect(page.getByText('Password is required')).toBeVisible();
    expect((await new Axe({ page }).analyze()).violations).toEqual([]);
    for (const viewport of [
      { width: 1280, height: 800 },
      { width: 390, height: 844 },
    ]) {
      await page.setViewportSize(viewport);
      await page.goto('/dashboard');
      await expect(page.getByRole('heading', { name: 'Welcome to Parley', exact: true })).toBeVisible();
      expect((await new Axe({ page }).analyze()).violations).toEqual([]);
    }
  });
});
