import { expect, test, type Browser, type Page } from './fixtures';
import { baseURL } from '../playwright.config';
import { befriend, signUp, uniqueName } from './people';
import { untranslated } from './untranslated';

/**
 * The video chat, the group rooms, the messages and the live list in other languages: the
 * pseudo-locale (en-XA, every catalog message accented) finds any text there that skipped the
 * catalogs, Arabic lays the rooms out right to left, and the video chat's own words say who left.
 */
test.use({ serviceWorkers: 'block' });
test.setTimeout(120_000);

type Person = { username: string; token: string; userId: string };

/** A signed-up person in a browser of their own, the interface in `locale` (a saved choice, or the browser's). */
async function person(browser: Browser, prefix: string, opts: { saved?: string; locale?: string } = {}): Promise<[Page, Person]> {
  const context = await browser.newContext({
    baseURL,
    serviceWorkers: 'block',
    permissions: ['camera', 'microphone'],
    viewport: { width: 1280, height: 800 },
    ...(opts.locale ? { locale: opts.locale } : {}),
  });
  const page = await context.newPage();
  page.on('pageerror', (err) => console.error(`[${prefix}] page error:`, err.message));
  if (opts.saved) await page.addInitScript((l) => localStorage.setItem('parley-locale', l), opts.saved);
  return [page, await signUp(page, uniqueName(prefix))];
}

const api = (page: Page, who: Person) => ({
  get: (url: string) => page.request.get(url, { headers: { authorization: `Bearer ${who.token}` } }),
  post: (url: string, data: unknown) => page.request.post(url, { data, headers: { authorization: `Bearer ${who.token}` } }),
});

test.describe('the pseudo-locale', () => {
  test('finds no untranslated text in the video chat, before a match and in its settings', async ({ browser }) => {
    const [page, me] = await person(browser, 'xaVid', { saved: 'en-XA' });
    await page.goto('/videochat');
    await expect(page.locator('html')).toHaveAttribute('lang', 'en-XA');
    await expect(page.getByTestId('preview-placeholder')).toBeHidden({ timeout: 30_000 });
    await expect(page.getByTestId('video-status')).toBeVisible();
    await expect.poll(() => untranslated(page, [me.username])).toEqual([]);

    await page.locator('[aria-controls="video-settings"]').click();
    await expect(page.locator('#video-settings').getByRole('radio')).toHaveCount(3);
    await expect.poll(() => untranslated(page, [me.username])).toEqual([]);
  });

  test('finds no untranslated text in the room list, the create form and a room with its settings and record', async ({ browser }) => {
    const [page, me] = await person(browser, 'xaRoom', { saved: 'en-XA' });
    const owner = api(page, me);
    const created = await owner.post('/api/groups', {
      name: uniqueName('Room'),
      category: 'Music',
      description: 'songs',
      visibility: 'invite',
      capacity: 20,
    });
    expect(created.status(), await created.text()).toBe(201);
    const room = (await created.json()) as { roomId: string; name: string };
    // Slow mode fills the room's banner and its moderation record with counted words.
    const slow = await owner.post(`/api/groups/${room.roomId}/moderation`, { action: 'slowMode', seconds: 10 });
    expect(slow.status(), await slow.text()).toBe(200);

    // Rooms' names, descriptions and owners are what people wrote: the same in every language.
    const list = (await (await owner.get('/api/groups')).json()) as { rooms: Array<{ name: string; description: string; owner: string }> };
    const data = [me.username, 'songs', ...list.rooms.flatMap((r) => [r.name, r.description, r.owner])];

    await page.goto('/groupchat');
    await expect(page.locator('html')).toHaveAttribute('lang', 'en-XA');
    await expect(page.getByRole('main').getByRole('link', { name: new RegExp(room.name) })).toBeVisible({ timeout: 30_000 });
    await expect.poll(() => untranslated(page, data)).toEqual([]);
    await page.locator('[aria-controls="create-room"]').click();
    await expect(page.locator('#create-room').getByRole('textbox').first()).toBeVisible();
    await expect.poll(() => untranslated(page, data)).toEqual([]);

    await page.goto(`/groupchat/${room.roomId}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(room.name, { timeout: 30_000 });
    await expect(page.locator('#invite-link')).toBeVisible();
    await page.locator('#room-side summary').click();
    await expect(page.locator('#room-side ol li')).toHaveCount(1);
    await expect.poll(() => untranslated(page, [...data, room.name])).toEqual([]);
  });

  test('finds no untranslated text in the messages, a conversation and the live list with its go-live panel', async ({ browser }) => {
    const [page, me] = await person(browser, 'xaMsg', { saved: 'en-XA' });
    const [friendPage, friend] = await person(browser, 'xaFriend');
    await befriend(page, me.token, friendPage, friend.token, friend.username);
    const data = [me.username, friend.username];

    // No conversation yet: the empty list.
    await page.goto('/messages');
    await expect(page.locator('html')).toHaveAttribute('lang', 'en-XA');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible({ timeout: 30_000 });
    await expect(page.locator('main p').last()).toBeVisible();
    await expect.poll(() => untranslated(page, data)).toEqual([]);

    await page.goto(`/messages/${friend.username}`);
    const box = page.getByRole('textbox');
    await expect(box).toBeEnabled({ timeout: 30_000 });
    await box.fill('hola');
    await box.press('Enter');
    await expect(page.getByRole('log').getByRole('listitem').filter({ hasText: 'hola' })).toBeVisible();
    await expect.poll(() => untranslated(page, [...data, 'hola'])).toEqual([]);

    // The list with that conversation: the friend, online or not, and the last message.
    await page.goto('/messages');
    await expect(page.getByRole('main').getByRole('link', { name: new RegExp(friend.username) })).toBeVisible({ timeout: 30_000 });
    await expect.poll(() => untranslated(page, [...data, 'hola'])).toEqual([]);

    await page.goto('/livestream');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible({ timeout: 30_000 });
    // Streams other specs left live on this server: their titles and names are data, the same in every language.
    const live = async () => {
      const res = await page.request.get('/api/live', { headers: { authorization: `Bearer ${me.token}` } });
      const { streams } = (await res.json()) as { streams: Array<{ title: string; broadcaster: { username: string } }> };
      return [...data, ...streams.flatMap((s) => [s.title, s.broadcaster.username])];
    };
    await expect.poll(async () => untranslated(page, await live())).toEqual([]);
    // The only button of the list's own: Go live, which opens the camera preview and the form.
    await page.getByRole('main').getByRole('button').first().click();
    await expect(page.getByTestId('live-preview')).toBeVisible();
    await expect(page.locator('#live-title')).toBeVisible();
    await expect.poll(async () => untranslated(page, await live())).toEqual([]);
    await friendPage.context().close();
  });
});

test('an Arabic browser gets the rooms right to left: the way back at the start, on the right', async ({ browser }) => {
  const [page] = await person(browser, 'arRoom', { locale: 'ar' });
  await page.goto('/groupchat');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('الدردشة الجماعية', { timeout: 30_000 });
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(page).toHaveTitle('الدردشة الجماعية · Parley');
  const back = (await page.getByRole('link', { name: /لوحة التحكم/ }).boundingBox())!;
  const title = (await page.getByRole('heading', { level: 1 }).boundingBox())!;
  expect(back.x).toBeGreaterThan(title.x);
});

test('the video chat names the partner in its chat, and pressing Next says you moved on, not that they left', async ({ browser }) => {
  const [a] = await person(browser, 'vidA');
  const [b, bob] = await person(browser, 'vidB');
  for (const p of [a, b]) {
    await p.goto('/videochat');
    await expect(p.getByTestId('preview-placeholder')).toBeHidden({ timeout: 30_000 });
  }
  await a.getByRole('button', { name: 'Start', exact: true }).click();
  await expect(a.getByTestId('video-status')).toHaveText('Looking for someone to meet…');
  await b.getByRole('button', { name: 'Start', exact: true }).click();
  await expect(b.getByRole('textbox', { name: 'Message' })).toBeEnabled({ timeout: 30_000 });

  await b.getByRole('textbox', { name: 'Message' }).fill('hello from b');
  await b.getByRole('button', { name: 'Send' }).click();
  const line = a.locator('#video-chat-panel').getByRole('log').getByRole('listitem').filter({ hasText: 'hello from b' });
  await expect(line).toContainText(bob.username);
  await expect(a.locator('#video-chat-panel').getByRole('log')).not.toContainText('Stranger');

  await a.getByRole('button', { name: 'Next' }).click();
  await expect(a.getByTestId('video-status')).toHaveText('You moved on. Finding someone new…');
  await expect(b.getByTestId('video-status')).toHaveText('Stranger has disconnected');
  await b.context().close();
});
