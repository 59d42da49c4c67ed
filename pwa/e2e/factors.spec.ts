import { Secret, TOTP } from 'otpauth';
import { expect, test, type Page, openLogin } from './fixtures';
import { expectAxeCleanOnBothScreens } from './axe';
import { uniqueName } from './people';
import { postSignup } from './signup';

const PASSWORD = 'a good long password';

async function signUp(page: Page) {
  const username = uniqueName('fa');
  const res = await postSignup(page.request, { data: { username, password: PASSWORD, age: 29, gender: 'other' } });
  expect(res.status()).toBe(201);
  return username;
}

async function signOut(page: Page) {
  await page.goto('/dashboard');
  await page.getByRole('button', { name: 'Your account' }).click();
  await page.getByRole('menuitem', { name: 'Sign out', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Welcome to Parley', exact: true })).toBeVisible();
}

test('a passkey made in Settings signs in without a password', async ({ page }) => {
  // Chromium's virtual authenticator: a platform passkey that verifies its user.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  const username = await signUp(page);
  await page.goto('/settingboard');
  await page.getByLabel('Passkey name').fill('Test laptop');
  await page.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(page.getByText('Test laptop')).toBeVisible();
  await expect(page.getByText('not used yet')).toBeVisible();
  // Renamed in place: Escape leaves the name as it was, Save keeps the new one.
  await page.getByRole('button', { name: 'Rename passkey Test laptop' }).click();
  await page.getByLabel('New name for “Test laptop”').fill('Nope');
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Rename passkey Test laptop' }).click();
  await expectAxeCleanOnBothScreens(page);
  await page.getByLabel('New name for “Test laptop”').fill('Work laptop');
  await page.getByRole('listitem').getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Work laptop', { exact: true })).toBeVisible();
  await expect(page.getByText('Test laptop')).toHaveCount(0);
  await expectAxeCleanOnBothScreens(page);

  // Where the browser offers passkeys with the username field (conditional UI), the page asks at
  // once; the virtual authenticator answers it as a person picking the passkey would.
  await signOut(page);
  await page.goto('/login');
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { name: username })).toBeVisible();
  await page.goto('/settingboard');
  await expect(page.getByText(/last used/)).toBeVisible();

  // A browser without that: the button asks.
  await page.addInitScript(() => {
    PublicKeyCredential.isConditionalMediationAvailable = () => Promise.resolve(false);
  });
  await signOut(page);
  await openLogin(page);
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { name: username })).toBeVisible();
});

test('with an authenticator app on, a password asks for its code before signing in', async ({ page }) => {
  // Sign-up, set-up, two sign-ins and a reset, with axe on both screens three times: more than the default minute on a busy machine.
  test.setTimeout(150_000);
  const username = await signUp(page);
  await page.goto('/settingboard');
  await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
  const secret = (await page.getByTestId('totp-secret').textContent())!.trim();
  const app = new TOTP({ secret: Secret.fromBase32(secret) });
  await expect(page.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
  await page.getByLabel('Six-digit code from the app').fill(app.generate());
  await page.getByRole('button', { name: 'Turn on', exact: true }).click();
  await expect(page.getByTestId('recovery-codes').getByRole('listitem')).toHaveCount(10);
  await expectAxeCleanOnBothScreens(page);
  const codes = await page.getByTestId('recovery-codes').getByRole('listitem').allTextContents();
  await page.getByRole('button', { name: 'I saved them' }).click();
  await expect(page.getByText('Two-factor sign-in is on with an authenticator app.')).toBeVisible();

  await signOut(page);
  await openLogin(page);
  await page.getByLabel('Username', { exact: true }).fill(username);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Two-factor sign-in' })).toBeVisible();
  await expectAxeCleanOnBothScreens(page);
  // The code that turned the app on was used; the next step's is accepted (one step either side).
  await page.getByLabel('Authentication code').fill(app.generate({ timestamp: Date.now() + 30_000 }));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { name: username })).toBeVisible();

  // Password forgotten: a recovery code sets a new one, and another stands in for the app.
  await signOut(page);
  await page.goto('/login');
  await page.getByRole('link', { name: 'Use a recovery code' }).click();
  await page.getByLabel('Username', { exact: true }).fill(username);
  await page.getByLabel('Recovery code').fill(codes[0]!);
  await page.getByLabel('New password', { exact: true }).fill('a newer long password');
  await page.getByRole('button', { name: 'Reset password' }).click();
  await expect(page.getByText('Your password is changed')).toBeVisible();
  await expectAxeCleanOnBothScreens(page);
  await page.getByRole('link', { name: 'Sign in', exact: true }).click();
  await page.getByLabel('Username', { exact: true }).fill(username);
  await page.getByLabel('Password', { exact: true }).fill('a newer long password');
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await page.getByRole('button', { name: 'Use a recovery code' }).click();
  await page.getByLabel('Recovery code').fill(codes[1]!);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('heading', { name: username })).toBeVisible();
});
