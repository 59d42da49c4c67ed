import { expect, test, type Browser, type Page } from './fixtures';
import { baseURL } from '../playwright.config';
import { signUp, uniqueName } from './people';
import { untranslated } from './untranslated';

/**
 * The interface language: it follows the browser on the first visit, can be chosen on the landing
 * page and in Settings, is remembered, and Arabic lays the page out right to left. The pseudo-locale
 * (en-XA: every catalog message accented) finds any text on the converted pages that skipped the
 * catalogs.
 */
test.use({ serviceWorkers: 'block' });

const heading = (page: Page) => page.getByRole('heading', { level: 1 });

test.describe('a Spanish browser', () => {
  test.use({ locale: 'es-ES' });

  test('is greeted in Spanish on the landing page and signs up in Spanish', async ({ page }) => {
    await page.goto('/');
    await expect(heading(page)).toHaveText('Explora el mundo. Conoce a alguien nuevo.');
    await expect(page.locator('html')).toHaveAttribute('lang', 'es');
    await expect(page.locator('html')).toHaveAttribute('dir', 'ltr');
    await expect(page).toHaveTitle('Parley: conoce gente nueva');
    await expect(page.getByRole('link', { name: 'Empieza una conversación' })).toBeVisible();

    await page.getByRole('banner').getByRole('link', { name: 'Registrarse' }).click();
    await expect(heading(page)).toHaveText('Crea tu cuenta');
    await expect(page.getByLabel('Nombre de usuario')).toBeVisible();
    await expect(page.getByRole('spinbutton', { name: 'Edad' })).toBeVisible();
    await expect(page.getByRole('combobox', { name: 'Género' })).toContainText('Mujer');
    await expect(page.getByRole('button', { name: 'Crear cuenta' })).toBeVisible();
    // The bot check speaks Spanish too.
    await expect(page.locator('altcha-widget')).toContainText(/No soy un robot|Comprobando|Verificado/);
  });
});

test.describe('an Arabic browser', () => {
  test.use({ locale: 'ar-EG' });

  test('gets Arabic, right to left: the page, the form fields and the frame start on the right', async ({ page }) => {
    await page.goto('/');
    await expect(heading(page)).toHaveText('استكشف العالم. تعرّف على شخص جديد.');
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    await expect(page.locator('html')).toHaveAttribute('lang', 'ar');

    await page.goto('/createaccount');
    await expect(heading(page)).toHaveText('أنشئ حسابك');
    // The password's Show button sits at the field's end, which is its left in Arabic.
    const field = await page.getByLabel('كلمة المرور', { exact: true }).boundingBox();
    const show = await page.getByRole('button', { name: /إظهار/ }).boundingBox();
    expect(show!.x + show!.width / 2).toBeLessThan(field!.x + field!.width / 2);
  });
});

/** A person with an Arabic browser, signed up, on the text chat page. */
async function arabicChatter(browser: Browser, prefix: string): Promise<Page> {
  const context = await browser.newContext({ baseURL, serviceWorkers: 'block', locale: 'ar', viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await signUp(page, uniqueName(prefix));
  await page.goto('/textchat');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('دردشة نصية');
  await expect(page.getByRole('button', { name: 'ابدأ', exact: true })).toBeEnabled();
  return page;
}

test('two Arabic speakers chat right to left: their own bubbles on the left, the partner’s on the right', async ({ browser }) => {
  const [a, b] = await Promise.all([arabicChatter(browser, 'arA'), arabicChatter(browser, 'arB')]);
  await expect(a.locator('html')).toHaveAttribute('dir', 'rtl');
  await a.getByRole('button', { name: 'ابدأ', exact: true }).click();
  await b.getByRole('button', { name: 'ابدأ', exact: true }).click();
  await expect(a.getByRole('region', { name: 'شريكك في الدردشة' })).toBeVisible();

  const box = a.getByRole('textbox', { name: 'الرسالة' });
  await box.fill('مرحبًا! كيف حالك؟');
  await box.press('Enter');
  await b.getByRole('textbox', { name: 'الرسالة' }).fill('بخير، شكرًا');
  await b.getByRole('textbox', { name: 'الرسالة' }).press('Enter');
  const bubble = (text: string) => a.getByRole('log').getByRole('listitem').filter({ hasText: text }).locator('div').first();
  await expect(bubble('بخير، شكرًا')).toBeVisible();
  await expect(a.getByRole('log').getByRole('listitem').filter({ hasText: 'مرحبًا! كيف حالك؟' })).toContainText('تم التسليم');
  const mine = (await bubble('مرحبًا! كيف حالك؟').boundingBox())!;
  const theirs = (await bubble('بخير، شكرًا').boundingBox())!;
  expect(mine.x + mine.width / 2).toBeLessThan(theirs.x + theirs.width / 2);
  // The composer's Send button sits at the inline end of the message box: its left.
  const send = (await a.getByRole('button', { name: 'إرسال' }).boundingBox())!;
  const field = (await box.boundingBox())!;
  expect(send.x).toBeLessThan(field.x);
});

test.describe('a Brazilian browser', () => {
  test.use({ locale: 'pt-BR' });

  test('gets Brazilian Portuguese, the bot check included', async ({ page }) => {
    await page.goto('/createaccount');
    await expect(heading(page)).toHaveText('Crie sua conta');
    await expect(page.locator('html')).toHaveAttribute('lang', 'pt-BR');
    await expect(page.locator('altcha-widget')).toContainText(/Não sou um robô|Verificando…|Verificado/);
  });
});

test.describe('a Japanese browser', () => {
  test.use({ locale: 'ja-JP' });

  test('gets Japanese', async ({ page }) => {
    await page.goto('/');
    await expect(heading(page)).toHaveText('世界を旅しよう。新しい誰かと出会おう。');
    await expect(page.locator('html')).toHaveAttribute('lang', 'ja');
    await page.goto('/createaccount');
    await expect(heading(page)).toHaveText('アカウントを作成');
  });
});

test.describe('an English browser', () => {
  test.use({ locale: 'en-US' });

  test('chooses French on the landing page, and it is remembered after a reload', async ({ page }) => {
    await page.goto('/');
    await expect(heading(page)).toHaveText('Explore the world. Meet someone new.');
    await page.getByRole('contentinfo').getByRole('combobox', { name: 'Language' }).selectOption('fr');
    await expect(heading(page)).toHaveText('Explorez le monde. Rencontrez quelqu’un de nouveau.');
    await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
    await page.reload();
    await expect(heading(page)).toHaveText('Explorez le monde. Rencontrez quelqu’un de nouveau.');
    await expect(page.getByRole('contentinfo').getByRole('combobox', { name: 'Langue' })).toHaveValue('fr');
  });

  test('a language chosen on the pre-rendered landing page before the app took over is applied, not lost', async ({ page }) => {
    // The language's catalog held back: the page's script has started, the app has not rendered yet.
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    await page.route(/\/assets\/shell-[\w-]+\.js$/, async (route) => {
      await released;
      await route.continue();
    });
    await page.goto('/');
    await expect(page.locator('#root[data-prerendered]')).toBeAttached();
    await page.getByRole('contentinfo').getByRole('combobox', { name: 'Language' }).selectOption('fr');
    release();
    await expect(heading(page)).toHaveText('Explorez le monde. Rencontrez quelqu’un de nouveau.');
    await expect(page.getByRole('contentinfo').getByRole('combobox', { name: 'Langue' })).toHaveValue('fr');
  });

  test('chooses Arabic in Settings: the frame turns right to left and the account keeps the choice', async ({ page }) => {
    const me = await signUp(page, uniqueName('lang'));
    await page.goto('/settingboard');
    // The first signed-in page loads the frame and the pages' messages: more than the landing page.
    await expect(heading(page)).toHaveText('Settings', { timeout: 30_000 });
    const settings = () => page.request.get('/api/settings', { headers: { authorization: `Bearer ${me.token}` } });
    // A first session keeps the language the device shows with the account.
    await expect.poll(async () => ((await (await settings()).json()) as { locale: string | null }).locale).toBe('en');

    await page.getByRole('main').getByRole('combobox', { name: 'Language' }).selectOption('ar');
    await expect(heading(page)).toHaveText('الإعدادات');
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    await expect.poll(async () => ((await (await settings()).json()) as { locale: string | null }).locale).toBe('ar');
    // The sidebar of a wide screen moves to the right edge.
    const nav = page.getByRole('navigation', { name: 'التنقل الرئيسي' }).filter({ visible: true }).first();
    const box = await nav.boundingBox();
    const width = page.viewportSize()!.width;
    if (width > 768) expect(box!.x + box!.width).toBeGreaterThan(width - 2);
    else expect(box!.y).toBeGreaterThan(0);

    await page.reload();
    await expect(heading(page)).toHaveText('الإعدادات');
  });
});

/** Browsers and systems the devices list names (the API's deviceName): product names, the same in every language. */
const DEVICE_PRODUCTS = [
  'Samsung Internet',
  'Chrome',
  'Firefox',
  'Safari',
  'Edge',
  'Opera',
  'Android',
  'iPhone',
  'iPad',
  'ChromeOS',
  'Windows',
  'macOS',
  'Linux',
];

test.describe('the pseudo-locale', () => {
  test.use({ locale: 'en-US' });

  test('finds no untranslated text on the landing page, sign-in and sign-up', async ({ page }) => {
    await page.addInitScript(() => localStorage.setItem('parley-locale', 'en-XA'));
    for (const path of ['/', '/login', '/createaccount']) {
      await page.goto(path);
      await expect(page.locator('html')).toHaveAttribute('lang', 'en-XA');
      await expect(heading(page)).not.toHaveText(/^[\x20-\x7e]*$/); // Rendered by the app, accented.
      if (path === '/createaccount') await expect(page.locator('altcha-widget')).toBeVisible();
      // Polled: the bot check takes its texts from the catalogs a moment after it appears.
      await expect.poll(() => untranslated(page), { message: path }).toEqual([]);
    }
  });

  test('finds no untranslated text in the signed-in frame, Settings and the text chat lobby', async ({ page }) => {
    await page.addInitScript(() => localStorage.setItem('parley-locale', 'en-XA'));
    const me = await signUp(page, uniqueName('pseudo'));
    await page.goto('/settingboard');
    await expect(page.locator('html')).toHaveAttribute('lang', 'en-XA');
    await expect(page.getByRole('table')).toBeVisible({ timeout: 30_000 }); // The account's settings have loaded.
    await expect.poll(() => untranslated(page, [me.username, ...DEVICE_PRODUCTS])).toEqual([]);

    await page.goto('/textchat');
    await expect(page.getByTestId('online-count')).toBeVisible({ timeout: 30_000 });
    await expect.poll(() => untranslated(page, [me.username])).toEqual([]);
  });
});
