import { appTookOver, expect, goInApp, test, type Page } from './fixtures';
import { befriend, messageItem as messageItemIn, newPage, send, signUp, uniqueName } from './people';
import { Axe } from './axe';

test.use({ serviceWorkers: 'block' });

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1440, height: 900 };

/** The app's places: the bottom tabs on a phone, the sidebar on a desktop (one of them shows). */
const places = (page: Page) => page.getByRole('navigation', { name: 'Main' });
/** A place's link; its name goes on with the unread count when there is one ("Messages, 2 unread"). */
const place = (page: Page, name: string) => places(page).getByRole('link', { name: new RegExp(`^${name}\\b`) });

async function expectAxeClean(page: Page, what: string) {
  const axe = await new Axe({ page }).analyze();
  expect(axe.violations, `${what}: ${JSON.stringify(axe.violations, null, 2)}`).toEqual([]);
}

for (const [screen, viewport] of [
  ['phone', PHONE],
  ['desktop', DESKTOP],
] as const) {
  test(`on a ${screen}, every place is one tap from the dashboard: rooms, messages, live, chat, profile and the bell`, async ({
    browser,
  }) => {
    const page = await newPage(browser, viewport);
    await signUp(page, uniqueName('nav'));
    await page.goto('/dashboard');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(/^Welcome (to Parley|back), /);
    await expect(places(page)).toBeVisible();
    // A phone has the tabs along the bottom; a desktop the sidebar on the left.
    const box = (await places(page).boundingBox())!;
    if (screen === 'phone') expect(box.y + box.height).toBeCloseTo(PHONE.height, -1);
    else expect(box.x).toBe(0);
    await expect(place(page, 'Home')).toHaveAttribute('aria-current', 'page');

    for (const [name, heading] of [
      ['Rooms', 'Group chat'],
      ['Messages', 'Messages'],
      ['Live', 'Live now'],
    ] as const) {
      await place(page, name).click();
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
      await expect(place(page, name)).toHaveAttribute('aria-current', 'page');
      // The same header on every page of the frame: home, the bell, the account menu.
      await expect(page.getByRole('banner').getByRole('link', { name: 'Parley' })).toBeVisible();
      await place(page, 'Home').click();
      await expect(page).toHaveURL(/\/dashboard$/);
    }

    // The 1:1 chat opens full screen; one tap brings the navigation back, another hides it again.
    await place(page, 'Chat').click();
    await expect(page.getByRole('heading', { level: 1, name: 'Text chat' })).toBeVisible();
    await expect(places(page)).toHaveCount(0);
    await page.getByRole('button', { name: 'Show navigation' }).click();
    await expect(places(page)).toBeVisible();
    await expect(place(page, 'Chat')).toHaveAttribute('aria-current', 'page');
    await page.getByRole('banner').getByRole('button', { name: 'Full screen' }).click();
    await expect(places(page)).toHaveCount(0);
    await page.getByRole('link', { name: 'Dashboard' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);

    // The account menu: profile, settings and signing out.
    await page.getByRole('button', { name: 'Your account' }).click();
    await page.getByRole('menu', { name: 'Your account' }).getByRole('menuitem', { name: 'Profile' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Your profile' })).toBeVisible();
    await expect(page.getByRole('menu', { name: 'Your account' })).toHaveCount(0);

    // The bell opens its panel on any page of the frame.
    await page.getByRole('button', { name: 'Notifications', exact: true }).click();
    await expect(page.getByRole('region', { name: 'Notifications' }).getByRole('heading', { name: 'Notifications' })).toBeVisible();
    await page.keyboard.press('Escape');

    // Settings too, then signing out from the same menu.
    await page.getByRole('button', { name: 'Your account' }).click();
    await page.getByRole('menu', { name: 'Your account' }).getByRole('menuitem', { name: 'Settings' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
    await page.getByRole('button', { name: 'Your account' }).click();
    await page.getByRole('menuitem', { name: 'Sign out', exact: true }).click();
    await expect(page.getByText('Signed out', { exact: true })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Welcome to Parley', exact: true })).toBeVisible();
    await expect(places(page)).toHaveCount(0);
  });
}

test('a signed-in person on the public pages sees the frame, never the Login / Sign Up bar', async ({ browser }) => {
  for (const viewport of [PHONE, DESKTOP]) {
    const page = await newPage(browser, viewport);
    await signUp(page, uniqueName('pub'));
    // /moderation sends a member who is not a moderator to /not-authorized: in the frame as well.
    for (const path of ['/contact-support', '/moderation', '/privacy-policy', '/rules']) {
      await page.goto(path);
      await expect(page.getByRole('main').getByRole('heading', { level: 1 })).toBeVisible();
      await expect(places(page), path).toBeVisible();
      await expect(page.getByRole('button', { name: 'Your account' }), path).toBeVisible();
      await expect(page.getByRole('link', { name: 'Sign Up' }), path).toHaveCount(0);
      await expect(page.getByRole('link', { name: 'Login', exact: true }), path).toHaveCount(0);
    }
    // On the landing page the public bar stays, with the way into the app instead of Login / Sign Up.
    // A click is pressed and released on one element: it waits until the app has replaced the
    // pre-rendered page, or a press on the old link and a release on the new one click nothing.
    await page.goto('/');
    await appTookOver(page);
    await expect(page.getByRole('banner').getByRole('link', { name: 'Sign Up' })).toHaveCount(0);
    if (viewport === PHONE) await page.getByRole('banner').getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('banner').getByRole('link', { name: 'Open Parley' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.context().close();
  }
});

test('unread direct messages and room messages show on Messages and Rooms, and clear once read', async ({ browser }) => {
  test.setTimeout(120_000);
  const [a, b] = await Promise.all([newPage(browser, DESKTOP), newPage(browser, PHONE)]);
  const ana = await signUp(a, uniqueName('ana'));
  const bo = await signUp(b, uniqueName('bo'));
  await befriend(a, ana.token, b, bo.token, bo.username);

  await b.goto('/dashboard');
  await expect(place(b, 'Messages')).toHaveText('Messages');
  await a.goto(`/messages/${bo.username}`);
  await send(a, 'Hello from the other page');
  // Bo is on the dashboard: the Messages tab counts it at once (room:activity), no reload.
  await expect(place(b, 'Messages')).toContainText('1 unread');
  await place(b, 'Messages').click();
  // The conversation, from the list of conversations (the friends list below links to Ana too).
  await b
    .getByRole('list', { name: 'Conversations' })
    .getByRole('link', { name: new RegExp(ana.username) })
    .click();
  await expect(b.getByRole('heading', { level: 1, name: ana.username })).toBeVisible();
  // On the phone the frame never covers the composer: the message box sits above the tab bar.
  const input = (await b.getByRole('textbox', { name: 'Message' }).boundingBox())!;
  expect(input.y + input.height).toBeLessThanOrEqual((await places(b).boundingBox())!.y);
  await expect(place(b, 'Messages')).not.toContainText('unread');
  await place(b, 'Home').click();
  await expect(place(b, 'Messages')).not.toContainText('unread');

  // A room of Bo's moves on while he is elsewhere: Rooms counts it; Ana's sidebar lists the room.
  const created = await a.request.post('/api/groups', {
    headers: { authorization: `Bearer ${ana.token}` },
    data: { name: `Nav ${uniqueName('r')}`, category: 'Gaming', description: 'A room for the frame test', visibility: 'public' },
  });
  expect(created.status(), await created.text()).toBe(201);
  const room = (await created.json()) as { roomId: string; name: string };
  const joined = await b.request.post(`/api/groups/${room.roomId}/join`, { headers: { authorization: `Bearer ${bo.token}` }, data: {} });
  expect(joined.status(), await joined.text()).toBe(200);
  await a.goto(`/groupchat/${room.roomId}`);
  await expect(places(a).getByRole('link', { name: room.name })).toHaveAttribute('aria-current', 'page');
  await send(a, 'Anyone here?');
  await expect(messageItemIn(a, 'Anyone here?')).toBeVisible();
  // Bo's page was open all along, before he joined: the room's activity counts at once (room:activity), no reload.
  await expect(place(b, 'Rooms')).toContainText('1 unread');
  await place(b, 'Rooms').click();
  await b
    .getByRole('main')
    .getByRole('link', { name: new RegExp(room.name) })
    .click();
  await expect(b.getByRole('heading', { level: 1, name: room.name })).toBeVisible();
  await expect(place(b, 'Rooms')).not.toContainText('unread');
});

test('the theme follows the system and can be chosen in Settings, remembered', async ({ browser }) => {
  const page = await newPage(browser, DESKTOP);
  await signUp(page, uniqueName('theme'));
  const background = () => page.evaluate(() => getComputedStyle(document.querySelector('[data-frame]')!).backgroundColor);

  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  const darkCanvas = await background();
  await page.emulateMedia({ colorScheme: 'light' });
  const lightCanvas = await background();
  expect(darkCanvas).not.toBe(lightCanvas);

  // The choice in Settings wins over the system and is remembered.
  await page.goto('/settingboard');
  await page.getByRole('radio', { name: /^Dark/ }).check();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await page.reload();
  await expect(page.getByRole('radio', { name: /^Dark/ })).toBeChecked();
  expect(await background()).toBe(darkCanvas);
  await page.getByRole('radio', { name: /^System/ }).check();
  await expect(page.locator('html')).not.toHaveAttribute('data-theme', /.*/);
  expect(await background()).toBe(lightCanvas);
});

const THEMED_PAGES = [
  '/dashboard',
  '/groupchat',
  '/messages',
  '/livestream',
  '/profile',
  '/settingboard',
  '/textchat',
  '/contact-support',
  '/missions',
  '/store',
];

for (const scheme of ['light', 'dark'] as const) {
  test(`every page of the frame is axe clean in the ${scheme} theme, on a phone and a desktop`, async ({ browser }) => {
    test.setTimeout(300_000);
    const page = await newPage(browser, PHONE);
    await signUp(page, uniqueName(scheme));
    await page.emulateMedia({ colorScheme: scheme });
    // One load, then from page to page inside the app: each page's own load is another test's.
    await page.goto(THEMED_PAGES[0]!);
    for (const path of THEMED_PAGES) {
      await goInApp(page, path);
      await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
      for (const viewport of [PHONE, DESKTOP]) {
        await page.setViewportSize(viewport);
        await expectAxeClean(page, `${path} ${scheme} ${viewport.width} px`);
      }
    }
    // The Go-live form: its title and category fields readable on the dark panel.
    await goInApp(page, '/livestream');
    await page.getByRole('button', { name: 'Go live' }).click();
    await expect(page.getByLabel(/^Title/)).toBeVisible();
    await expectAxeClean(page, `go-live form, ${scheme}`);
  });
}
