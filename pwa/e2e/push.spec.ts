import { chromium, expect, test } from './fixtures';
import { baseURL, chromiumArgs, fullChromium } from '../playwright.config';

test.use({ serviceWorkers: 'allow' });

/**
 * Web Push in the browser: the service worker receives a push (delivered through the DevTools
 * protocol, as a push service would) and shows it while no Parley page is open. The server side,
 * encryption included, is tested in api/src/notifications/push.test.ts against a local push service.
 */
test('the service worker shows a push while no Parley page is open, and only ever links inside the app', async () => {
  // The whole browser: the headless shell the other specs run in shows no notifications.
  const browser = await chromium.launch({ executablePath: fullChromium, args: chromiumArgs });
  try {
    const context = await browser.newContext({ baseURL, serviceWorkers: 'allow' });
    await context.grantPermissions(['notifications'], { origin: baseURL });
    const page = await context.newPage();
    await page.goto('/');
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });

    // A tab of something else, to talk to the browser once Parley's page is closed.
    const other = await context.newPage();
    await other.goto('about:blank');
    const cdp = await context.newCDPSession(other);
    const registrations: Array<{ registrationId: string; scopeURL: string; isDeleted: boolean }> = [];
    cdp.on('ServiceWorker.workerRegistrationUpdated', (e) => registrations.push(...e.registrations));
    await cdp.send('ServiceWorker.enable');
    await expect.poll(() => registrations.find((r) => r.scopeURL === `${baseURL}/` && !r.isDeleted)).toBeTruthy();
    const { registrationId } = registrations.find((r) => r.scopeURL === `${baseURL}/`)!;

    await page.close();
    expect(context.pages().map((p) => p.url())).toEqual(['about:blank']);
    const payload = {
      notificationId: '41',
      kind: 'friendRequest',
      title: 'Friend request',
      body: 'ana wants to be your friend',
      link: '/users/ana',
      tag: 'friendRequest:41',
    };
    await cdp.send('ServiceWorker.deliverPushMessage', { origin: baseURL, registrationId, data: JSON.stringify(payload) });

    // Open Parley again only to ask the worker what it shows (on a loaded machine the worker can take seconds to show a push).
    const again = await context.newPage();
    await again.goto('/privacy-policy');
    const shown = await again.evaluate(async () => {
      const reg = await navigator.serviceWorker.ready;
      for (let i = 0; i < 150; i++) {
        const list = await reg.getNotifications();
        if (list.length) return list.map((n) => ({ title: n.title, body: n.body, tag: n.tag, data: n.data as unknown }));
        await new Promise((r) => setTimeout(r, 100));
      }
      return [];
    });
    expect(shown).toEqual([
      { title: 'Friend request', body: 'ana wants to be your friend', tag: 'friendRequest:41', data: { link: '/users/ana' } },
    ]);

    // A link that is not a path of the app is never opened from a notification.
    await cdp.send('ServiceWorker.deliverPushMessage', {
      origin: baseURL,
      registrationId,
      data: JSON.stringify({ ...payload, tag: 'evil', link: 'https://evil.example/' }),
    });
    const evil = await again.evaluate(async () => {
      const reg = await navigator.serviceWorker.ready;
      for (let i = 0; i < 150; i++) {
        const n = (await reg.getNotifications({ tag: 'evil' }))[0];
        if (n) return n.data as unknown;
        await new Promise((r) => setTimeout(r, 100));
      }
      return null;
    });
    expect(evil).toEqual({ link: '/dashboard' });
  } finally {
    await browser.close();
  }
});

/**
 * The page's half of a notification click (the worker's half is lib/notificationClick.test.ts): the
 * worker tells the open window where to go, and the app moves there without a reload; a link
 * outside the app is ignored.
 */
test("an open Parley window goes where the worker's notification click tells it, inside the app only", async ({ browser }) => {
  const context = await browser.newContext({ baseURL, serviceWorkers: 'allow' });
  const page = await context.newPage();
  await page.goto('/');
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
  await page.evaluate(() => {
    (window as unknown as { __sameDocument: boolean }).__sameDocument = true;
  });
  const tell = (link: string) =>
    worker.evaluate(async (to) => {
      const sw = self as unknown as { clients: { matchAll(o: object): Promise<Array<{ postMessage(m: unknown): void }>> } };
      for (const w of await sw.clients.matchAll({ type: 'window', includeUncontrolled: true }))
        w.postMessage({ type: 'NAVIGATE', link: to });
    }, link);
  await tell('https://evil.example/');
  await tell('//evil.example/x');
  await tell('/privacy-policy');
  await expect(page).toHaveURL(`${baseURL}/privacy-policy`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  // The same document: the router moved, nothing reloaded.
  expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
  await context.close();
});
