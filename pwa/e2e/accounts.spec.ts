import { Secret, TOTP } from 'otpauth';
import { expect, test, type Browser, type Page, openLogin } from './fixtures';
import { e2ePort } from '../playwright.config';
import { startOwnServer } from './ownServer';
import { postSignup } from './signup';
import { expectAxeCleanOnBothScreens } from './axe';
import { linkToken, mailCatcher } from '../../api/src/testing/mailCatcher';
import { googleStandIn } from '../../api/src/testing/googleStandIn';

const PASSWORD = 'a good long password';
const NEW_PASSWORD = 'another long passphrase';
const uniqueName = (prefix: string) => `${prefix}${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`.slice(0, 20);

// A server of its own whose mail goes to a real SMTP server in this test process, and whose
// Google sign-in goes to a local OpenID provider standing in for Google.
let mail: Awaited<ReturnType<typeof mailCatcher>>;
let server: Awaited<ReturnType<typeof startOwnServer>> | undefined;
let idp: Awaited<ReturnType<typeof googleStandIn>> | undefined;
const GOOGLE_CLIENT = { id: 'parley-e2e-client', secret: 'an-e2e-client-secret-long-enough-for-hs256-000' };
/** The people the stand-in provider knows: one signs up with Google, one is linked to a password account. */
const GOOGLE_SUB = 'google-e2e-2fa';
const GOOGLE_LINK_SUB = 'google-e2e-link';

test.beforeAll(async () => {
  mail = await mailCatcher();
  idp = await googleStandIn({
    [GOOGLE_SUB]: { name: 'Gia Twofactor', email: 'gia@example.test' },
    [GOOGLE_LINK_SUB]: { name: 'Lee Linker', email: 'lee@example.test' },
  });
  idp.admit({ id: GOOGLE_CLIENT.id, secret: GOOGLE_CLIENT.secret, callback: `http://localhost:${e2ePort(2)}/api/auth/google/callback` });
  server = await startOwnServer(2, {
    SMTP_URL: mail.SMTP_URL,
    GOOGLE_CLIENT_ID: GOOGLE_CLIENT.id,
    GOOGLE_CLIENT_SECRET: GOOGLE_CLIENT.secret,
    GOOGLE_OAUTH_BASE: idp.issuer,
  });
});
test.afterAll(async () => {
  await server?.stop();
  await mail?.close();
  await idp?.close();
});

async function newPage(browser: Browser, userAgent?: string): Promise<Page> {
  const context = await browser.newContext({ baseURL: server!.url, serviceWorkers: 'block', ...(userAgent ? { userAgent } : {}) });
  return context.newPage();
}

async function signIn(page: Page, username: string, password: string) {
  await openLogin(page);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

test('an email is added and confirmed, another device is signed out from the list, and a forgotten password is reset from the email', async ({
  browser,
}) => {
  // Three browsers, two emails' round trips and axe on three pages at two sizes.
  test.setTimeout(180_000);
  const username = uniqueName('acct');
  const address = `${username}@example.test`;
  const first = await newPage(browser);
  expect((await postSignup(first.request, { data: { username, password: PASSWORD, age: 30, gender: 'female' } })).status()).toBe(201);
  // Signed out of the sign-up's session, so the list holds only the sign-ins below.
  await first.request.post('/api/auth/logout');
  await signIn(first, username, PASSWORD);

  // Add an email in Settings; confirm it from the link that arrives.
  await first.goto('/settingboard');
  const emailSection = first.getByRole('region', { name: 'Email' });
  await emailSection.getByLabel('Email', { exact: true }).fill(address);
  await emailSection.getByRole('button', { name: 'Send confirmation link' }).click();
  await expect(emailSection.getByRole('status')).toContainText(address);
  const confirmation = await mail.next(address, /Confirm your email/);
  await first.goto(`/verify-email?token=${linkToken(confirmation, '/verify-email')}`);
  await expect(first.getByText('Your email is confirmed.')).toBeVisible();
  await first.goto('/settingboard');
  await expect(first.getByTestId('email-status')).toContainText(`${address} (confirmed)`);

  // A second browser signs in: a new device, told by email; the first signs it out from the list.
  const phone = await newPage(
    browser,
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36',
  );
  await signIn(phone, username, PASSWORD);
  expect((await mail.next(address, /New sign-in/)).text).toContain('Chrome on Android');
  await first.reload();
  const devices = first.getByRole('list', { name: 'Signed-in devices' });
  await expect(devices.getByRole('listitem')).toHaveCount(2);
  await expectAxeCleanOnBothScreens(first);
  await devices.getByRole('button', { name: /^Sign out Chrome on Android/ }).click();
  await expect(devices.getByRole('listitem')).toHaveCount(1);
  expect((await phone.request.get('/api/auth/refresh')).status()).toBe(401);

  // Signed out, the password forgotten: a link by email, a new password, and in again.
  const visitor = await newPage(browser);
  await visitor.goto('/login');
  await visitor.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(visitor).toHaveURL(/\/forgot-password$/);
  await expectAxeCleanOnBothScreens(visitor);
  await visitor.getByLabel('Username or email').fill(username);
  await visitor.getByRole('button', { name: 'Send reset link' }).click();
  await expect(visitor.getByRole('status')).toContainText('a reset link is on its way');
  const reset = await mail.next(address, /Reset your Parley password/);
  await visitor.goto(`/reset-password?token=${linkToken(reset, '/reset-password')}`);
  await expectAxeCleanOnBothScreens(visitor);
  await visitor.getByLabel('New password').fill(NEW_PASSWORD);
  await visitor.getByRole('button', { name: 'Save new password' }).click();
  await expect(visitor.getByText('Your password is changed')).toBeVisible();
  // The reset signed out every device, the first browser too.
  expect((await first.request.get('/api/auth/refresh')).status()).toBe(401);
  await visitor.getByRole('link', { name: 'Go to Login' }).click();
  await visitor.getByLabel('Username').fill(username);
  await visitor.getByLabel('Password').fill(NEW_PASSWORD);
  await visitor.getByRole('button', { name: 'Login' }).click();
  await expect(visitor).toHaveURL(/\/dashboard$/);
});

/** The Google button, then the stand-in provider's sign-in and consent pages, until the browser is back. */
async function signInWithGoogle(page: Page, sub = GOOGLE_SUB) {
  await openLogin(page);
  await page.getByRole('button', { name: 'Google', exact: true }).click();
  await throughGoogle(page, sub);
}

/** The stand-in provider's sign-in and consent pages, as `sub`, until the browser is back at Parley. */
async function throughGoogle(page: Page, sub: string) {
  const home = new URL(server!.url).host;
  for (let hops = 0; hops < 4 && new URL(page.url()).host !== home; hops++) {
    const login = page.locator('input[name="login"]');
    const submit = page.locator('button[type="submit"]');
    await submit.first().waitFor();
    if (await login.count()) {
      await login.fill(sub);
      await page.locator('input[name="password"]').fill('any');
    }
    await Promise.all([page.waitForEvent('framenavigated', (frame) => frame === page.mainFrame()), submit.first().click()]);
  }
  await expect.poll(() => new URL(page.url()).host).toBe(home);
}

test('an account made with Google and two-factor on is asked for its code after Google, and sets a password with a recovery code', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const page = await newPage(browser);
  await signInWithGoogle(page);
  await expect(page).toHaveURL(/\/confirm-account$/);
  await page.getByLabel('Age').fill('31');
  await page.getByLabel('Gender').selectOption('female');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  await page.goto('/settingboard');
  await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
  const app = new TOTP({ secret: Secret.fromBase32((await page.getByTestId('totp-secret').textContent())!.trim()) });
  await page.getByLabel('Six-digit code from the app').fill(app.generate());
  await page.getByRole('button', { name: 'Turn on', exact: true }).click();
  await expect(page.getByTestId('recovery-codes').getByRole('listitem')).toHaveCount(10);
  const codes = await page.getByTestId('recovery-codes').getByRole('listitem').allTextContents();
  await page.getByRole('button', { name: 'I saved them' }).click();

  // No password yet, a second factor on: the first password takes one of them (here a recovery code).
  const password = page.getByRole('region', { name: 'Password' });
  await expect(password.getByLabel('Authentication code')).toBeVisible();
  await password.getByRole('button', { name: 'Use a recovery code' }).click();
  await password.getByLabel('Recovery code').fill('aaaaa-aaaaa');
  await password.getByLabel('New password').fill(PASSWORD);
  await password.getByRole('button', { name: 'Set password' }).click();
  await expect(password.getByRole('alert')).toContainText('That code is not right');
  await password.getByLabel('Recovery code').fill(codes[0]!);
  await password.getByRole('button', { name: 'Set password' }).click();
  await expect(password.getByRole('button', { name: 'Change password' })).toBeVisible();
  await expect(password.getByLabel('Current password')).toBeVisible();
  await expectAxeCleanOnBothScreens(page);

  // Google again: no session until the code, though Google said yes.
  await page.getByRole('button', { name: 'Your account' }).click();
  await page.getByRole('menuitem', { name: 'Sign out', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Welcome to Parley', exact: true })).toBeVisible();
  await signInWithGoogle(page);
  await expect(page.getByRole('heading', { name: 'Two-factor sign-in' })).toBeVisible();
  expect((await page.request.get('/api/auth/refresh')).status()).toBe(401);
  await page.getByLabel('Authentication code').fill(app.generate({ timestamp: Date.now() + 30_000 }));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { name: 'Gia_Twofactor' })).toBeVisible();
});

test('a password account links Google in Settings, then signs in with Google to the same account', async ({ browser }) => {
  test.setTimeout(120_000);
  const username = uniqueName('lnk');
  const page = await newPage(browser);
  expect((await postSignup(page.request, { data: { username, password: PASSWORD, age: 30, gender: 'male' } })).status()).toBe(201);
  await page.request.post('/api/auth/logout');
  await signIn(page, username, PASSWORD);

  await page.goto('/settingboard');
  const google = page.getByRole('region', { name: 'Google sign-in' });
  await google.getByRole('button', { name: 'Link Google' }).click();
  // The page asks the server for Google's address first, then goes there.
  await page.waitForURL((url) => url.host !== new URL(server!.url).host);
  await throughGoogle(page, GOOGLE_LINK_SUB);
  await expect(page).toHaveURL(/\/settingboard$/);
  await expect(google.getByText('Linked to lee@example.test')).toBeVisible();
  await expect(google.getByRole('button', { name: 'Unlink Google' })).toBeEnabled();
  await expectAxeCleanOnBothScreens(page);

  await page.getByRole('button', { name: 'Your account' }).click();
  await page.getByRole('menuitem', { name: 'Sign out', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Welcome to Parley', exact: true })).toBeVisible();
  await signInWithGoogle(page, GOOGLE_LINK_SUB);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { name: username })).toBeVisible();
});
