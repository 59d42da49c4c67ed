import sharp from 'sharp';
import { expect, test, type Browser, type BrowserContext, type Page, openLogin } from './fixtures';
import { baseURL } from '../playwright.config';
import { postSignup } from './signup';
import { Axe } from './axe';

test.use({ serviceWorkers: 'block' });

const PASSWORD = 'a good long password';
const PHONE = { width: 390, height: 844 };
const uniqueName = (prefix: string) => `${prefix}${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`.slice(0, 20);

// Every context a test opens is closed after it: an open page stays online and would count in other specs.
const contexts: BrowserContext[] = [];
test.afterEach(async () => {
  await Promise.all(contexts.splice(0).map((c) => c.close()));
});

async function newPage(browser: Browser, viewport = PHONE): Promise<Page> {
  const context = await browser.newContext({ baseURL, serviceWorkers: 'block', viewport, hasTouch: true });
  contexts.push(context);
  const page = await context.newPage();
  page.on('pageerror', (err) => console.error(`[${page.url()}] page error:`, err.message));
  return page;
}

/** A new account; its refresh cookie lands in the page's context, so loading a page signs in. */
async function signUp(page: Page, username: string) {
  const res = await postSignup(page.request, { data: { username, password: PASSWORD, age: 29, gender: 'female' } });
  expect(res.status(), await res.text()).toBe(201);
}

async function expectAxeClean(page: Page) {
  const result = await new Axe({ page }).analyze();
  expect(result.violations, JSON.stringify(result.violations, null, 2)).toEqual([]);
}

/** No element wider than the phone's screen: nothing to scroll sideways at 390 px. */
async function expectNoSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
}

test('edits the profile with an avatar on a phone: saved, previewed as strangers see it, private fields kept', async ({ browser }) => {
  const page = await newPage(browser);
  const other = await newPage(browser);
  const name = uniqueName('prof');
  const viewer = uniqueName('view');
  await signUp(page, name);
  await signUp(other, viewer);

  await page.goto('/profile');
  await expect(page.getByRole('heading', { name: 'Your profile', level: 1 })).toBeVisible();
  await expect(page).toHaveTitle('Your profile · Parley');
  const photo = await sharp({ create: { width: 1600, height: 1200, channels: 3, background: { r: 200, g: 80, b: 40 } } })
    .jpeg()
    .toBuffer();
  await page.locator('#avatar-file').setInputFiles({ name: 'me.jpg', mimeType: 'image/jpeg', buffer: photo });
  await expect(page.getByRole('region', { name: 'Avatar' }).getByRole('img', { name: `${name}'s avatar` })).toHaveAttribute(
    'src',
    /^\/api\/images\/[0-9a-f-]{36}-256\.webp$/,
  );

  // A renamed text file is refused with the server's message.
  await page
    .locator('#avatar-file')
    .setInputFiles({ name: 'notes.jpg', mimeType: 'image/jpeg', buffer: Buffer.from('just some text, not a photo') });
  await expect(page.getByRole('alert')).toHaveText(/not an image Parley can read/);

  await page.getByRole('textbox', { name: 'About me' }).fill('I climb and cook. Ask me about Lyon.');
  const hobby = page.getByRole('textbox', { name: /^Hobbies/ });
  for (const h of ['climbing', 'cooking']) {
    await hobby.fill(h);
    await hobby.press('Enter');
  }
  await expect(page.getByRole('list', { name: 'Your hobbies' }).getByRole('listitem')).toHaveText([/climbing/, /cooking/]);
  await page.getByRole('button', { name: 'Remove cooking' }).click();
  await page.getByRole('combobox', { name: 'Country' }).selectOption('FR');
  await page.getByRole('checkbox', { name: 'About me' }).check();
  // The preview follows the form: the description is for friends only now.
  const preview = page.getByRole('region', { name: `${name}'s profile` });
  await expect(preview).not.toContainText('I climb and cook');
  await expect(preview).toContainText('France');
  await page.getByRole('button', { name: 'Save profile' }).click();
  await expect(page.getByText('Profile saved', { exact: true })).toBeVisible();
  await expectNoSidewaysScroll(page);
  await expectAxeClean(page);

  // After a reload everything is still there.
  await page.reload();
  await expect(page.getByRole('textbox', { name: 'About me' })).toHaveValue('I climb and cook. Ask me about Lyon.');
  await expect(page.getByRole('list', { name: 'Your hobbies' }).getByRole('listitem')).toHaveText([/climbing/]);

  // A stranger sees the card without the private description, and actions to take.
  await other.goto(`/users/${name}`);
  const card = other.getByRole('region', { name: `${name}'s profile` });
  await expect(card.getByRole('heading', { name, level: 1 })).toBeVisible();
  await expect(card).toContainText('France');
  await expect(card).not.toContainText('I climb and cook');
  await expect(card.getByRole('img', { name: `${name}'s avatar` })).toHaveAttribute('src', /-256\.webp$/);
  await expect(other.getByRole('button', { name: 'Add friend' })).toBeVisible();
  await expectNoSidewaysScroll(other);
  await expectAxeClean(other);

  await other.goto('/users/nobody_by_this_name');
  await expect(other.getByRole('heading', { name: /No one goes by/ })).toBeVisible();
  await expectAxeClean(other);
});

test('settings and backgrounds pages are usable on a phone and axe clean', async ({ browser }) => {
  const page = await newPage(browser);
  // The gallery is public.
  await page.goto('/backgroundimage');
  await expect(page.getByRole('heading', { name: 'Chat backgrounds' })).toBeVisible();
  await expect(page.getByRole('button', { name: /Dusk/ })).toBeDisabled();
  await expectAxeClean(page);

  await signUp(page, uniqueName('set'));
  await page.goto('/backgroundimage');
  await page.getByRole('button', { name: /Dusk/ }).click();
  await expect(page.getByRole('button', { name: /Dusk/ })).toHaveAttribute('aria-pressed', 'true');
  await expectNoSidewaysScroll(page);
  await expectAxeClean(page);

  await page.goto('/settingboard');
  await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
  await page.getByLabel('Who can send me friend requests').selectOption('partners');
  await expect(page.getByLabel('Who can send me friend requests')).toHaveValue('partners');
  // Each switch is saved as it is flipped; the next waits for the page to show the last.
  const push = page.getByRole('checkbox', { name: 'Direct messages: push' });
  await push.click();
  await expect(push).not.toBeChecked();
  const quiet = page.getByRole('checkbox', { name: 'Quiet hours', exact: true });
  await quiet.click();
  await expect(quiet).toBeChecked();
  await expect(page.getByLabel('From', { exact: true })).toHaveValue('22:00');
  await page.reload();
  await expect(page.getByLabel('Who can send me friend requests')).toHaveValue('partners');
  await expect(page.getByRole('checkbox', { name: 'Direct messages: push' })).not.toBeChecked();
  await expect(page.getByRole('checkbox', { name: 'Direct messages: in the app' })).toBeChecked();
  await expectNoSidewaysScroll(page);
  await expectAxeClean(page);
});

test('on an iPhone the settings page says that push needs Parley on the Home Screen; elsewhere it offers to turn push on', async ({
  browser,
}) => {
  const context = await browser.newContext({
    baseURL,
    serviceWorkers: 'block',
    viewport: PHONE,
    hasTouch: true,
    userAgent:
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  });
  contexts.push(context);
  const iphone = await context.newPage();
  await signUp(iphone, uniqueName('ios'));
  await iphone.goto('/settingboard');
  await expect(iphone.getByText(/notifications need Parley on your Home Screen \(iOS 16\.4 or later\)/)).toBeVisible();
  await expect(iphone.getByRole('button', { name: 'Turn on for this device' })).toHaveCount(0);
  await expectAxeClean(iphone);

  const desktop = await newPage(browser, { width: 1280, height: 800 });
  await signUp(desktop, uniqueName('dsk'));
  await desktop.goto('/settingboard');
  await expect(desktop.getByRole('button', { name: 'Turn on for this device' })).toBeVisible();
  await expect(desktop.getByText(/Home Screen/)).toHaveCount(0);
});

test('two strangers chat, become friends from recent partners (the bell counts it live); one leaves, the other writes, and signing in again they find it', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const ana = await newPage(browser);
  const ben = await newPage(browser, { width: 1280, height: 800 });
  const anaName = uniqueName('ana');
  const benName = uniqueName('ben');
  await signUp(ana, anaName);
  await signUp(ben, benName);

  for (const p of [ana, ben]) {
    await p.goto('/textchat');
    await expect(p.getByRole('button', { name: 'Start', exact: true })).toBeEnabled();
  }
  await ana.getByRole('button', { name: 'Start', exact: true }).click();
  await ben.getByRole('button', { name: 'Start', exact: true }).click();
  await expect(ana.getByRole('region', { name: 'Your chat partner' }).getByRole('heading', { name: benName })).toBeVisible();
  // The chat screen offers a friend request and a rating for this partner.
  const actions = ana.getByRole('group', { name: `What to do about ${benName}` });
  await expect(actions.getByRole('button', { name: 'Add friend' })).toBeVisible();
  await expect(actions.getByRole('button', { name: `Thumbs up for ${benName}` })).toBeVisible();
  // Ana leaves the chat (her page goes elsewhere); the room ends.

  // Ben waits on his profile page, bell in the top bar.
  await ben.goto('/profile');
  await expect(ben.getByRole('button', { name: 'Notifications', exact: true })).toBeVisible();

  // The dashboard lists him among the people she met, with a friend request still possible.
  await ana.goto('/dashboard');
  const met = ana.getByRole('list', { name: 'Recent partners' });
  await expect(met.getByRole('link', { name: benName, exact: true })).toBeVisible();
  await expect(ana.getByRole('button', { name: `Add ${benName} as a friend` })).toBeVisible();

  await ana.goto('/profile');
  const recent = ana.getByRole('list', { name: 'Recent partners' });
  await expect(recent.getByRole('link', { name: benName, exact: true })).toBeVisible();
  await ana.getByRole('button', { name: `Thumbs up for ${benName}` }).click();
  await expect(ana.getByRole('button', { name: `Thumbs up for ${benName}` })).toBeHidden();
  await ana.getByRole('button', { name: `Add ${benName} as a friend` }).click();
  await expect(ana.getByText(`Friend request sent to ${benName}`, { exact: true })).toBeVisible();

  // Live: Ben's bell counts one unread without a reload.
  await expect(ben.getByRole('button', { name: 'Notifications, 1 unread' })).toBeVisible();
  await ben.getByRole('button', { name: 'Notifications, 1 unread' }).click();
  await ben.getByRole('link', { name: `${anaName} wants to be your friend` }).click();
  await expect(ben).toHaveURL(`/users/${anaName}`);
  await ben.getByRole('button', { name: 'Accept request' }).click();
  await expect(ben.getByRole('link', { name: 'Message', exact: true })).toHaveAttribute('href', `/messages/${anaName}`);
  await expect(ben.getByRole('button', { name: 'Notifications', exact: true })).toBeVisible();

  // Ana hears it, and finds Ben among her friends, online.
  await expect(ana.getByRole('button', { name: 'Notifications, 1 unread' })).toBeVisible();
  const friends = ana.getByRole('list', { name: 'Your friends' });
  await expect(friends.getByRole('link', { name: benName, exact: true })).toBeVisible();
  await expect(friends).toContainText('Online');
  await expect(friends.getByRole('link', { name: `Message ${benName}` })).toHaveAttribute('href', `/messages/${benName}`);
  // Ben's rating counts on his card, without naming who gave it.
  await ana.goto(`/users/${benName}`);
  await expect(ana.getByRole('region', { name: `${benName}'s profile` }).getByLabel('1 thumbs up, 0 thumbs down')).toBeVisible();

  // Ben leaves: he signs out of Parley.
  await ben.goto('/dashboard');
  // Signing out is in the account menu of the app's top bar.
  await ben.getByRole('button', { name: 'Your account' }).click();
  await ben.getByRole('menuitem', { name: 'Sign out', exact: true }).click();
  await expect(ben.getByText('Signed out', { exact: true })).toBeVisible();

  // Ana writes to him later, her chosen background behind the conversation.
  await ana.goto('/backgroundimage');
  await ana.getByRole('button', { name: /Dusk/ }).click();
  await expect(ana.getByRole('button', { name: /Dusk/ })).toHaveAttribute('aria-pressed', 'true');
  await ana.goto(`/users/${benName}`);
  await ana.getByRole('link', { name: 'Message', exact: true }).click();
  await expect(ana).toHaveURL(`/messages/${benName}`);
  await expect(ana.getByRole('heading', { name: benName, level: 1 })).toBeVisible();
  await expect(ana.locator('[data-chat-background]')).toHaveAttribute('data-chat-background', /dusk/);
  const box = ana.getByRole('textbox', { name: 'Message' });
  await box.fill('Fun chat! Same time tomorrow?');
  await box.press('Enter');
  await expect(ana.getByRole('log').getByRole('listitem').filter({ hasText: 'Fun chat! Same time tomorrow?' })).toBeVisible();
  await expectAxeClean(ana);

  // Ben signs in again: the unread count waits for him, then the message.
  await openLogin(ben);
  await ben.getByLabel('Username', { exact: true }).fill(benName);
  await ben.getByLabel('Password').fill(PASSWORD);
  await ben.getByRole('button', { name: 'Login' }).click();
  await expect(ben).not.toHaveURL(/\/login/);
  await ben.goto('/messages');
  const row = ben.getByRole('main').getByRole('link', { name: new RegExp(anaName) });
  await expect(row.getByLabel('1 unread')).toBeVisible();
  await expect(row).toContainText('Fun chat! Same time tomorrow?');
  await row.click();
  await expect(ben.getByRole('log').getByRole('listitem').filter({ hasText: 'Fun chat! Same time tomorrow?' })).toBeVisible();
});
