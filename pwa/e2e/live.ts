import { expect, type Browser, type Page } from './fixtures';
import { postSignup } from './signup';

export const PASSWORD = 'a good long password';
export const uniqueName = (prefix: string) => `${prefix}${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`.slice(0, 20);
export const PHONE = { width: 390, height: 844 };

/** A new signed-in user in a context of their own, with camera and microphone allowed (fake media). */
export async function liveUser(
  browser: Browser,
  prefix: string,
  viewport?: { width: number; height: number },
): Promise<Page & { username: string }> {
  const context = await browser.newContext({
    serviceWorkers: 'block',
    permissions: ['camera', 'microphone'],
    ...(viewport ? { viewport, hasTouch: true } : {}),
  });
  const page = await context.newPage();
  page.on('pageerror', (err) => console.error(`[${prefix}] page error:`, err.message));
  const username = uniqueName(prefix);
  const res = await postSignup(page.request, { data: { username, password: PASSWORD, age: 30, gender: 'female' } });
  expect(res.status(), await res.text()).toBe(201);
  return Object.assign(page, { username });
}

/** The stream's video plays at a viewer: a size, time advancing, and an audio track. */
export async function expectPlaying(page: Page) {
  const video = page.getByTestId('live-video');
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.videoWidth), { timeout: 45_000 }).toBeGreaterThan(0);
  const t0 = await video.evaluate((v: HTMLVideoElement) => v.currentTime);
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 30_000 }).toBeGreaterThan(t0);
  const audio = await video.evaluate(
    (v: HTMLVideoElement) => (v.srcObject as MediaStream).getAudioTracks().filter((t) => t.readyState === 'live').length,
  );
  expect(audio).toBeGreaterThan(0);
}

/** Waits until the stream is listed (its camera reached the server), so a viewer has a picture to get; answers its link. */
export async function published(page: Page, title: string) {
  await page.goto('/livestream');
  const link = page.getByRole('link', { name: new RegExp(title) });
  // A busy machine: the list is a lazily loaded page, and the stream is listed once its camera arrives.
  await expect(link).toBeVisible({ timeout: 45_000 });
  return link;
}

/** The broadcaster goes live from /livestream with `title`; answers the stream page's path. */
export async function goLive(caster: Page, title: string, category = 'Music'): Promise<string> {
  await caster.goto('/livestream');
  await caster.getByRole('button', { name: 'Go live' }).click();
  await expect
    .poll(() => caster.getByTestId('live-preview').evaluate((v: HTMLVideoElement) => v.videoWidth), { timeout: 45_000 })
    .toBeGreaterThan(0);
  await caster.getByLabel('Title', { exact: true }).fill(title);
  await caster.locator('#live-category').selectOption(category);
  await caster.getByRole('button', { name: 'Start streaming' }).click();
  await caster.waitForURL(/\/livestream\/[0-9a-f-]{36}$/);
  return new URL(caster.url()).pathname;
}
