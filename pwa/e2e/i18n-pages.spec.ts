import { expect, test, type Page } from './fixtures';
import { baseURL } from '../playwright.config';
import { signUp, uniqueName } from './people';
import { untranslated } from './untranslated';

/**
 * The pseudo-locale (en-XA: every catalog message accented) walks the account, economy, support
 * and legal pages and finds no text that skipped the catalogs; the payment page a signed-out
 * visitor opens waits for the session and its Sign in link comes back to it.
 */
test.use({ serviceWorkers: 'block', locale: 'en-US' });

const heading = (page: Page) => page.getByRole('heading', { level: 1 });
/** Codes that are data in every language: the cookies the privacy policy names. */
const COOKIES = ['parley_refresh', 'parley_device', 'parley_known_…', 'parley_oauth_state'];

/** The emoji codes (:parley_fox:) a page shows as alt text: names, not words. */
const emojiCodes = (page: Page) =>
  page.locator('img[alt^=":"]').evaluateAll((imgs) => imgs.map((img) => img.getAttribute('alt')!.replace(/:/g, '')));

async function walk(page: Page, path: string, ready: (page: Page) => Promise<void>, data: string[] = []) {
  await page.goto(path);
  await expect(page.locator('html')).toHaveAttribute('lang', 'en-XA');
  await ready(page);
  await expect(heading(page)).not.toHaveText(/^[\x20-\x7e]*$/); // Rendered by the app, accented.
  const codes = await emojiCodes(page);
  // Longest first: parley_rain must not cut parley_rainbow in two.
  const known = [...data, ...codes].sort((a, b) => b.length - a.length);
  await expect.poll(() => untranslated(page, known), { message: path }).toEqual([]);
}

test.describe('the pseudo-locale', () => {
  test.beforeEach(async ({ page }) => {
    await page.addInitScript(() => localStorage.setItem('parley-locale', 'en-XA'));
  });

  test('finds no untranslated text on the legal pages, support and appeal, signed out', async ({ page }) => {
    const loaded = async (p: Page) => {
      await expect(heading(p)).toBeVisible({ timeout: 30_000 });
    };
    for (const path of ['/privacy-policy', '/terms-of-service', '/rules']) {
      await walk(
        page,
        path,
        async (p) => {
          await loaded(p);
          // The privacy policy reads this server's relay setting before it says what it does.
          if (path === '/privacy-policy') await expect(p.getByTestId('relay-status')).not.toContainText('…');
        },
        COOKIES,
      );
    }
    await walk(page, '/contact-support', loaded);
    // The form's own messages: a topic and a message are missing.
    await page.locator('main form button[type="submit"]').click();
    await expect(page.locator('[aria-invalid="true"]').first()).toBeVisible();
    await expect.poll(() => untranslated(page), { message: 'support form errors' }).toEqual([]);
    await walk(page, '/appeal', loaded);
  });

  test('finds no untranslated text in the store, missions, premium, donate and profile pages', async ({ page }) => {
    const me = await signUp(page, uniqueName('xa'));
    await walk(
      page,
      '/store',
      (p) =>
        expect(
          p
            .getByRole('listitem')
            .filter({ has: p.getByRole('heading', { level: 2 }) })
            .first(),
        ).toBeVisible({ timeout: 30_000 }),
      [me.username],
    );
    await walk(page, '/missions', (p) => expect(p.getByTestId('gold')).toBeVisible({ timeout: 30_000 }), [me.username]);
    // A day of the streak calendar: its date (Intl's) and its state (a message).
    await expect(page.getByRole('list').locator('li time').first()).toBeAttached();
    await walk(page, '/premium-membership', (p) => expect(p.getByRole('status').first()).toBeVisible({ timeout: 30_000 }), [me.username]);
    await walk(page, '/donate', (p) => expect(p.getByRole('status').first()).toBeVisible({ timeout: 30_000 }), [me.username]);
    // The profile: its form, the card preview and the languages.
    await walk(page, '/profile', (p) => expect(p.locator('form textarea').first()).toBeVisible({ timeout: 30_000 }), [me.username]);
  });
});

test.describe('a payment page opened signed out', () => {
  test('waits for the session, then its Sign in link signs in and comes back to it', async ({ page, browser }) => {
    const me = await signUp(page, uniqueName('pay'));
    // A browser without the account: the session restore finds no one.
    const context = await browser.newContext({ baseURL, serviceWorkers: 'block', locale: 'en-US' });
    const visitor = await context.newPage();
    // The restore answers slowly: meanwhile the page says it is loading, never "Sign in to see".
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await visitor.route('**/api/auth/refresh', async (route) => {
      await held;
      await route.continue();
    });
    const path = '/payment/success?session_id=cs_test_a1b2c3d4e5f6';
    await visitor.goto(path);
    await expect(heading(visitor)).toHaveText('Loading your purchase…', { timeout: 30_000 });
    await expect(visitor.getByText('Sign in to see your purchase')).toHaveCount(0);
    release();
    await expect(heading(visitor)).toHaveText('Sign in to see your purchase');
    await visitor.getByRole('link', { name: 'Sign in' }).click();
    await expect(visitor).toHaveURL(/\/login\?returnTo=/);
    await visitor.getByLabel('Username', { exact: true }).fill(me.username);
    await visitor.getByLabel('Password').fill('a good long password');
    await visitor.getByRole('button', { name: 'Login' }).click();
    // Back on the payment page, signed in: this session is not one of the account's payments.
    await expect(visitor).toHaveURL(new RegExp(`${path.replace(/[?]/g, '\\?')}$`), { timeout: 30_000 });
    await expect(heading(visitor)).toHaveText(/We could not find this payment|The payment could not be checked|Confirming your payment…/);
  });
});
