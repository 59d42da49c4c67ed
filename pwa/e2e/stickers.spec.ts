import { mkdtempSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { expect, test, type Browser, type Page } from './fixtures';
import { startOwnServer } from './ownServer';
import { befriend, conversation, signUp, uniqueName } from './people';
import { Axe } from './axe';

test.use({ serviceWorkers: 'block' });

// A server of this spec's own with a GIF library (GIF_DIR) of two GIFs, one tagged by tags.json.
const gifDir = mkdtempSync(path.join(os.tmpdir(), 'parley-e2e-gifs-'));
let server: Awaited<ReturnType<typeof startOwnServer>> | undefined;

const gif = (background: string) =>
  sharp({ create: { width: 48, height: 36, channels: 3, background } })
    .gif()
    .toBuffer();

test.beforeAll(async () => {
  await writeFile(path.join(gifDir, 'dancing-cat.gif'), await gif('#cc5522'));
  await writeFile(path.join(gifDir, 'thumbs.gif'), await gif('#2255cc'));
  await writeFile(path.join(gifDir, 'tags.json'), JSON.stringify({ 'thumbs.gif': ['yes', 'approve'] }));
  server = await startOwnServer(8, { GIF_DIR: gifDir });
});
test.afterAll(async () => {
  await server?.stop();
  await rm(gifDir, { recursive: true, force: true });
});

async function pageAt(browser: Browser, viewport: { width: number; height: number }): Promise<Page> {
  const context = await browser.newContext({ baseURL: server!.url, serviceWorkers: 'block', viewport });
  return context.newPage();
}

async function axeClean(page: Page) {
  const { violations } = await new Axe({ page }).analyze();
  expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

/** Opens the picker by keyboard and sends a sticker from it: the picker's first tab has focus, Tab reaches the stickers. */
async function sendSticker(page: Page, name: string) {
  await page.getByRole('button', { name: 'Stickers and GIFs' }).press('Enter');
  const picker = page.getByRole('dialog', { name: 'Stickers and GIFs' });
  await expect(picker.getByRole('tab', { name: 'Stickers' })).toBeFocused();
  const sticker = picker.getByRole('button', { name, exact: true }).first();
  await sticker.focus();
  await sticker.press('Enter');
  await expect(picker).toBeHidden();
}

/** Opens the picker, searches the GIF library by tag and sends the GIF found. */
async function sendGif(page: Page, search: string, alt: string) {
  await page.getByRole('button', { name: 'Stickers and GIFs' }).click();
  const picker = page.getByRole('dialog', { name: 'Stickers and GIFs' });
  await picker.getByRole('tab', { name: 'GIFs' }).click();
  await picker.getByRole('searchbox', { name: 'Search GIFs' }).fill(search);
  const found = picker.getByRole('button', { name: `GIF: ${alt}` });
  await expect(found).toHaveCount(1);
  await expect(picker.getByRole('list', { name: 'GIFs' }).getByRole('button')).toHaveCount(1);
  await found.click();
  await expect(picker).toBeHidden();
}

async function seesImage(page: Page, name: string) {
  const img = conversation(page).getByRole('img', { name });
  await expect(img).toHaveCount(1);
  await expect.poll(() => img.evaluate((i: HTMLImageElement) => i.naturalWidth)).toBeGreaterThan(0);
}

test('friends send a sticker and a GIF in their direct conversation, one of them on a 390 px phone', async ({ browser }) => {
  test.setTimeout(120_000);
  const [a, b] = await Promise.all([pageAt(browser, { width: 1280, height: 800 }), pageAt(browser, { width: 390, height: 844 })]);
  const ana = await signUp(a, uniqueName('ana'));
  const bo = await signUp(b, uniqueName('bo'));
  await befriend(a, ana.token, b, bo.token, bo.username);
  await a.goto(`/messages/${bo.username}`);
  await b.goto(`/messages/${ana.username}`);
  await expect(a.getByRole('textbox', { name: 'Message' })).toBeEnabled();
  await expect(b.getByRole('textbox', { name: 'Message' })).toBeEnabled();

  await sendSticker(a, 'Waving hand');
  await seesImage(b, 'Sticker: Waving hand');
  await seesImage(a, 'Sticker: Waving hand');

  await sendGif(b, 'cat', 'dancing cat');
  await seesImage(a, 'GIF: dancing cat');
  await seesImage(b, 'GIF: dancing cat');
  // The picker fits the phone's width, and the page is clean with it open.
  await b.getByRole('button', { name: 'Stickers and GIFs' }).click();
  const picker = b.getByRole('dialog', { name: 'Stickers and GIFs' });
  await picker.getByRole('tab', { name: 'GIFs' }).click();
  // Recently used first: the GIF just sent leads the library.
  await expect(picker.getByRole('list', { name: 'GIFs' }).getByRole('button').first()).toHaveAccessibleName('GIF: dancing cat');
  const box = await picker.boundingBox();
  expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true);
  await axeClean(b);
  await b.keyboard.press('Escape');
  await expect(picker).toBeHidden();
  await expect(b.getByRole('button', { name: 'Stickers and GIFs' })).toBeFocused();
  await axeClean(b);
});

test('in a group room a member sends a free sticker and a GIF; a sold pack points to the store until bought', async ({ browser }) => {
  test.setTimeout(120_000);
  const [o, c] = await Promise.all([pageAt(browser, { width: 1280, height: 800 }), pageAt(browser, { width: 390, height: 844 })]);
  const owner = await signUp(o, uniqueName('own'));
  await signUp(c, uniqueName('cy'));
  const created = await o.request.post('/api/groups', {
    headers: { authorization: `Bearer ${owner.token}` },
    data: { name: uniqueName('Stickers'), category: 'Music' },
  });
  expect(created.status()).toBe(201);
  const { roomId } = (await created.json()) as { roomId: string };
  await o.goto(`/groupchat/${roomId}`);
  await c.goto(`/groupchat/${roomId}`);
  await c.getByRole('button', { name: 'Join room' }).click();
  await expect(c.getByRole('textbox', { name: 'Message' })).toBeEnabled();
  await expect(o.getByRole('textbox', { name: 'Message' })).toBeEnabled();

  // The sold pack shows its stickers, not as buttons, and where to get it.
  await c.getByRole('button', { name: 'Stickers and GIFs' }).click();
  const picker = c.getByRole('dialog', { name: 'Stickers and GIFs' });
  const party = picker.getByRole('region', { name: 'Party' });
  await expect(party.getByRole('img', { name: 'Birthday cake' })).toBeVisible();
  await expect(party.getByRole('button')).toHaveCount(0);
  await expect(party.getByRole('link', { name: 'store' })).toHaveAttribute('href', '/store');
  await axeClean(c);
  await c.keyboard.press('Escape');

  await sendSticker(c, 'Spinning star');
  await seesImage(o, 'Sticker: Spinning star');
  await sendGif(o, 'appr', 'thumbs yes approve');
  await seesImage(c, 'GIF: thumbs yes approve');
  await axeClean(c);
});
