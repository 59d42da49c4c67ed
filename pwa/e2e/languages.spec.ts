import { expect, test } from './fixtures';
import { newPage, signUp, uniqueName } from './people';
import { expectAxeCleanOnBothScreens } from './axe';

const PHONE = { width: 390, height: 844 };

test('two people practising each other’s language are matched as an exchange, on a phone', async ({ browser }) => {
  const ana = await newPage(browser, PHONE);
  const ben = await newPage(browser, PHONE);
  await signUp(ana, uniqueName('lang'));
  const benUser = await signUp(ben, uniqueName('lang'));

  // Ana chooses her languages in her profile: English spoken, Spanish learnt.
  await ana.goto('/profile');
  const form = ana.getByTestId('languages-form');
  await expect(form).toBeVisible();
  for (const chip of await form.getByRole('list', { name: 'Languages I speak' }).getByRole('button').all()) await chip.click();
  await form.getByLabel('Add to: Languages I speak').selectOption('en');
  await form.getByLabel('Add to: Languages I am learning').selectOption('es');
  await form.getByRole('button', { name: 'Save languages' }).click();
  await expect(ana.getByText('Languages saved', { exact: true })).toBeVisible();
  await expectAxeCleanOnBothScreens(ana);
  await ana.setViewportSize(PHONE);
  expect(await ana.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);

  // Ben speaks Spanish and learns English (through the API).
  const patched = await ben.request.patch('/api/profile', {
    headers: { authorization: `Bearer ${benUser.token}` },
    data: { languages: ['es'], learning: ['en'] },
  });
  expect(patched.status(), await patched.text()).toBe(200);

  // Ana only wants Spanish speakers; Ben has no filter.
  await ana.goto('/textchat');
  await ana.getByLabel('Speaks').selectOption('es');
  await ana.getByRole('button', { name: 'Start', exact: true }).click();
  await ben.goto('/textchat');
  await expect(ben.getByLabel('From')).toBeVisible();
  await expectAxeCleanOnBothScreens(ben);
  await ben.setViewportSize(PHONE);
  await ben.getByRole('button', { name: 'Start', exact: true }).click();

  await expect(ana.getByText('Language exchange: you practise Spanish, they practise English.')).toBeVisible();
  await expect(ben.getByText('Language exchange: you practise English, they practise Spanish.')).toBeVisible();
  await expect(ana.getByTestId('language-note')).toContainText('Speaks Spanish');

  // The room list starts with Ana's languages, and can show any.
  await ana.goto('/groupchat');
  const roomLanguage = ana.getByLabel('Room language');
  await expect(roomLanguage.locator('option:checked')).toHaveText('My languages (English)');
  await roomLanguage.selectOption('any');
  await expectAxeCleanOnBothScreens(ana);
  await ana.context().close();
  await ben.context().close();
});

test('the language and country filters speak the interface language, names included', async ({ browser }) => {
  const page = await newPage(browser);
  // The browser reads English; the person chose Japanese on this device.
  await page.addInitScript(() => localStorage.setItem('parley-locale', 'ja'));
  await signUp(page, uniqueName('lang'));
  await page.goto('/textchat');
  await expect(page.locator('html')).toHaveAttribute('lang', 'ja');
  const speaks = page.getByLabel('話す言語', { exact: true });
  await expect(speaks.locator('option:checked')).toHaveText('すべての言語（共通の言語を優先）');
  await speaks.selectOption({ label: 'フランス語のみ' });
  const place = page.getByLabel('地域', { exact: true });
  await place.selectOption({ label: 'ドイツ' });
  await expect(place).toHaveValue('DE');
  await expect(place.locator('option[value="near"]')).toHaveText('近く（自分の国と近隣の国）');
  await page.context().close();
});
