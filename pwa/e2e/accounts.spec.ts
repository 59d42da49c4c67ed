import { expect, test, type Browser, type Page } from './fixtures';
import { startOwnServer } from './ownServer';
import { postSignup } from './signup';
import { expectAxeCleanOnBothScreens } from './axe';
import { linkToken, mailCatcher } from '../../api/src/testing/mailCatcher';

const PASSWORD = 'a good long password';
const NEW_PASSWORD = 'another long passphrase';
const uniqueName = (prefix: string) => `${prefix}${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`.slice(0, 20);

// A server of its own whose mail goes to a real SMTP server in this test process.
let mail: Awaited<ReturnType<typeof mailCatcher>>;
let server: Awaited<ReturnType<typeof startOwnServer>> | undefined;

test.beforeAll(async () => {
  mail = await mailCatcher();
  server = await startOwnServer(2, { SMTP_URL: mail.SMTP_URL });
});
test.afterAll(async () => {
  await server?.stop();
  await mail?.close();
});

async function newPage(browser: Browser, userAgent?: string): Promise<Page> {
  const context = await browser.newContext({ baseURL: server!.url, serviceWorkers: 'block', ...(userAgent ? { userAgent } : {}) });
  return context.newPage();
}

async function signIn(page: Page, username: string, password: string) {
  await page.goto('/login');
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
