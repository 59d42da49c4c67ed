import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { befriend, conversation, newPage, signUp, uniqueName } from './people';
import { Axe } from './axe';

test.use({ serviceWorkers: 'block' });

/** A photo as a phone would pick it: a JPEG with the camera's location in its EXIF. */
const photo = () =>
  sharp({ create: { width: 640, height: 480, channels: 3, background: { r: 220, g: 90, b: 40 } } })
    .withExif({ IFD0: { Copyright: 'Home, 51.5 N' } })
    .jpeg()
    .toBuffer();

/** The nudity guard's explicit test picture (the first frame of its test video, scripts/explicit-test-video.mjs) as a JPEG. */
async function explicitPhoto(): Promise<Buffer> {
  const y4m = readFileSync(fileURLToPath(new URL('./media/explicit.y4m', import.meta.url)));
  const [, w, h] = /W(\d+) H(\d+)/.exec(y4m.subarray(0, 100).toString('latin1'))!.map(Number) as [number, number, number];
  const start = y4m.indexOf('FRAME\n') + 'FRAME\n'.length;
  const [y, u, v] = [start, start + w * h, start + w * h + (w * h) / 4];
  const rgb = Buffer.alloc(w * h * 3);
  for (let row = 0; row < h; row++)
    for (let col = 0; col < w; col++) {
      const c = (row >> 1) * (w >> 1) + (col >> 1);
      const [Y, U, V] = [y4m[y + row * w + col]!, y4m[u + c]! - 128, y4m[v + c]! - 128];
      const i = (row * w + col) * 3;
      rgb[i] = Math.max(0, Math.min(255, Y + 1.402 * V));
      rgb[i + 1] = Math.max(0, Math.min(255, Y - 0.344 * U - 0.714 * V));
      rgb[i + 2] = Math.max(0, Math.min(255, Y + 1.772 * U));
    }
  return sharp(rgb, { raw: { width: w, height: h, channels: 3 } })
    .jpeg({ quality: 92 })
    .toBuffer();
}

async function sendPicture(page: Page, name: string, buffer?: Buffer) {
  await page.getByTestId('picture-input').setInputFiles({ name, mimeType: 'image/jpeg', buffer: buffer ?? (await photo()) });
}

/** The length a voice player shows ("0:00 / 0:03"), in seconds. */
async function voiceLength(player: Locator): Promise<number> {
  const [, m, sec] = /\/ (\d+):(\d\d)/.exec((await player.getByTestId('voice-time').textContent()) ?? '') ?? [];
  return Number(m) * 60 + Number(sec);
}

/**
 * Taps the microphone (a tap starts a recording that Stop ends), records a moment, listens, sends.
 * Returns the length the sender heard: on a slow machine the taps themselves add to it.
 */
async function sendVoice(page: Page): Promise<number> {
  await page.getByRole('button', { name: 'Record a voice message' }).click();
  await expect(page.getByTestId('voice-waveform')).toBeVisible();
  await page.waitForTimeout(2200);
  await page.getByTestId('voice-stop').click();
  const take = page.getByRole('group', { name: 'Your recording' });
  await expect(take.getByTestId('voice-time')).toContainText(/ \/ \d+:\d\d/);
  const seconds = await voiceLength(take);
  await page.getByTestId('voice-send').click();
  return seconds;
}

/** The picture shows (decoded), opens full screen in a dialog, and Escape closes it. */
async function seesPicture(page: Page, from: string) {
  const picture = conversation(page).getByRole('img', { name: `Picture from ${from}` });
  await expect(picture).toBeVisible();
  await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  await conversation(page)
    .getByRole('button', { name: `Open the picture from ${from} full screen` })
    .click();
  const dialog = page.getByRole('dialog', { name: `Picture from ${from}` });
  await expect(dialog).toBeVisible();
  await expect.poll(() => dialog.getByTestId('picture-full').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(640);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
}

/**
 * The voice message plays: it is as long as what was recorded (the server measures it from the
 * file; the recorder timed it, so they may round a second apart), its position moves on, and the
 * speed goes 1× → 1.5×.
 */
async function playsVoice(page: Page, from: string, recorded: number) {
  const voice = conversation(page).getByRole('group', { name: `Voice message from ${from}` });
  await expect(voice).toBeVisible();
  await expect(voice.getByTestId('voice-time')).toContainText(/ \/ \d+:\d\d/);
  const seconds = await voiceLength(voice);
  expect(seconds).toBeGreaterThanOrEqual(2);
  expect(Math.abs(seconds - recorded)).toBeLessThanOrEqual(1);
  await voice.getByTestId('voice-speed').click();
  await expect(voice.getByTestId('voice-speed')).toHaveText('1.5×');
  await voice.getByRole('button', { name: 'Play', exact: true }).click();
  await expect(voice.getByTestId('voice-time')).not.toContainText(/^0:00 /, { timeout: 30_000 });
}

test('friends send a picture and a voice message in their direct conversation; the other sees and plays them', async ({ browser }) => {
  test.setTimeout(120_000);
  const [a, b] = await Promise.all([newPage(browser), newPage(browser, { width: 390, height: 844 })]);
  const ana = await signUp(a, uniqueName('ana'));
  const bo = await signUp(b, uniqueName('bo'));
  await befriend(a, ana.token, b, bo.token, bo.username);
  await a.goto(`/messages/${bo.username}`);
  await b.goto(`/messages/${ana.username}`);
  await expect(a.getByRole('textbox', { name: 'Message' })).toBeEnabled();
  await expect(b.getByRole('textbox', { name: 'Message' })).toBeEnabled();

  await sendPicture(a, 'beach.jpg');
  await expect(conversation(a).getByRole('img', { name: 'Your picture' })).toBeVisible();
  // A friend's picture is never blurred.
  await expect(conversation(b).getByTestId('message-picture')).toHaveAttribute('data-guarded', 'false');
  await seesPicture(b, ana.username);

  await playsVoice(b, ana.username, await sendVoice(a));
  const axe = await new Axe({ page: b }).analyze();
  expect(axe.violations, JSON.stringify(axe.violations, null, 2)).toEqual([]);

  // Search finds the picture by what it is, though it has no words.
  await b.goto('/search');
  await b.getByRole('checkbox', { name: 'Has a picture or GIF' }).check();
  await b.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(b.getByTestId('search-hit')).toHaveCount(1);
  await expect(b.getByTestId('search-hit')).toContainText('Picture');
});

test('in a group room a stranger’s picture is blurred until tapped; pictures and voice messages reach every member', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const [o, c] = await Promise.all([newPage(browser), newPage(browser, { width: 390, height: 844 })]);
  const owner = await signUp(o, uniqueName('own'));
  const cy = await signUp(c, uniqueName('cy'));
  const created = await o.request.post('/api/groups', {
    headers: { authorization: `Bearer ${owner.token}` },
    data: { name: uniqueName('Pics'), category: 'Music' },
  });
  expect(created.status()).toBe(201);
  const { roomId } = (await created.json()) as { roomId: string };
  await o.goto(`/groupchat/${roomId}`);
  await c.goto(`/groupchat/${roomId}`);
  await c.getByRole('button', { name: 'Join room' }).click();
  await expect(c.getByRole('textbox', { name: 'Message' })).toBeEnabled();
  await expect(o.getByRole('textbox', { name: 'Message' })).toBeEnabled();

  await sendPicture(o, 'cat.jpg');
  const shown = conversation(c).getByTestId('message-picture');
  await expect(shown).toHaveAttribute('data-guarded', 'true');
  await expect(shown).toContainText('Tap to show');
  // The guard's model looked at it on the phone: nothing explicit, so the usual words stay.
  await expect(shown).toHaveAttribute('data-verdict', 'clear', { timeout: 60_000 });
  await c.getByRole('button', { name: `Show the picture from ${owner.username}` }).click();
  await expect(shown).toHaveAttribute('data-guarded', 'false');
  await seesPicture(c, owner.username);

  await playsVoice(o, cy.username, await sendVoice(c));
  // Deleted by its author, the voice message is gone for the others too.
  const mine = conversation(c)
    .getByRole('listitem')
    .filter({ has: c.getByRole('group', { name: 'Your voice message' }) });
  // By keyboard: on the phone the "Jump to first unread" pill covers the newest message.
  await mine.getByRole('button', { name: 'Actions for your message' }).press('Enter');
  await mine.getByRole('button', { name: 'Delete' }).press('Enter');
  // Asked in the app's own dialog, not the browser's.
  await c.getByRole('dialog', { name: 'Delete this message for everyone?' }).getByRole('button', { name: 'Delete' }).press('Enter');
  await expect(conversation(o).getByRole('group', { name: `Voice message from ${cy.username}` })).toHaveCount(0);
  await expect(conversation(o).getByText('This message was deleted.')).toBeVisible();

  // An explicit picture from a stranger: still blurred, and said to be what it may be.
  await sendPicture(o, 'explicit.jpg', await explicitPhoto());
  const explicit = conversation(c).getByTestId('message-picture').last();
  await expect(explicit).toHaveAttribute('data-guarded', 'true');
  await expect(explicit).toHaveAttribute('data-verdict', 'explicit', { timeout: 60_000 });
  await expect(explicit).toContainText('This picture may show nudity');
  await explicit.click();
  await expect(explicit).toHaveAttribute('data-guarded', 'false');
});
