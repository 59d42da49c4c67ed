import { expect, test, type Page } from './fixtures';
import { befriend, messageItem, newPage, send, signUp, uniqueName } from './people';

test.use({ serviceWorkers: 'block' });

/**
 * Long unbroken words and links wrap in the stored conversations too (group rooms, direct
 * messages), not only in the 1:1 chats: on a phone nothing grows wider than the screen and the
 * own messages stay on it.
 */
const PHONE = { width: 390, height: 844 };
const WORD = 'Pneumonoultramicroscopicsilicovolcanoconiosis'.repeat(8);
const LINK = `https://example.com/${'x'.repeat(250)}?q=${'y'.repeat(60)}`;

async function expectInsideThePhone(page: Page, texts: string[]) {
  for (const text of texts) await expect(messageItem(page, text.slice(0, 30))).toBeVisible();
  const log = page.getByRole('log');
  // The scroller around the log: nothing in it is wider than it, and it is no wider than the screen.
  const scroller = log.locator('xpath=..');
  expect(await scroller.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  for (const text of texts) {
    const bubble = (await messageItem(page, text.slice(0, 30)).locator('div').first().boundingBox())!;
    expect(bubble.x).toBeGreaterThanOrEqual(0);
    expect(bubble.x + bubble.width).toBeLessThanOrEqual(PHONE.width);
  }
}

test('on a phone a long unbroken word or link wraps in a group room; the own messages stay on screen', async ({ browser }) => {
  const p = await newPage(browser, PHONE);
  await signUp(p, uniqueName('wrapg'));
  await p.goto('/groupchat');
  await p.getByRole('button', { name: 'Create a room' }).click();
  await p.getByLabel('Room name').fill(uniqueName('Long words '));
  await p.getByLabel('Category', { exact: true }).selectOption('Music');
  await p.getByRole('button', { name: 'Create room' }).click();
  await expect(p).toHaveURL(/\/groupchat\/[0-9a-f-]{36}$/);
  await expect(p.getByRole('textbox', { name: 'Message' })).toBeEnabled();
  await send(p, WORD);
  await send(p, LINK);
  await send(p, 'short one');
  await expectInsideThePhone(p, [WORD, LINK, 'short one']);
  await p.context().close();
});

test('on a phone a long unbroken word or link from a friend wraps in direct messages; the own messages stay on screen', async ({
  browser,
}) => {
  const [a, b] = await Promise.all([newPage(browser), newPage(browser, PHONE)]);
  const ana = await signUp(a, uniqueName('wrapa'));
  const bo = await signUp(b, uniqueName('wrapb'));
  await befriend(a, ana.token, b, bo.token, bo.username);
  await a.goto(`/messages/${bo.username}`);
  await b.goto(`/messages/${ana.username}`);
  await expect(b.getByRole('textbox', { name: 'Message' })).toBeEnabled();
  await send(a, WORD);
  await send(a, LINK);
  await expect(messageItem(b, LINK.slice(0, 30))).toBeVisible();
  await send(b, 'short one');
  await expectInsideThePhone(b, [WORD, LINK, 'short one']);
  await Promise.all([a.context().close(), b.context().close()]);
});
