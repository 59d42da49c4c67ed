import { expect, test } from './fixtures';
import { baseURL } from '../playwright.config';

test.use({ serviceWorkers: 'allow' });

/**
 * Web Push in the browser: the service worker receives a push (delivered through the DevTools
 * protocol, as a push service would) and shows it while no Parley page is open. The server side,
 * encryption included, is tested in api/src/notifications/push.test.ts against a local push service.
 */
test('the service worker shows a push while no Parley page is open, and only ever links inside the app', async ({ browser }) => {
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

  // Open Parley again only to ask the worker what it shows.
  const again = await context.newPage();
  await again.goto('/privacy-policy');
  const shown = await again.evaluate(async () => {
    const reg = await navigator.serviceWorker.ready;
    for (let i = 0; i < 50; i++) {
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
    for (let i = 0; i < 50; i++) {
      const n = (await reg.getNotifications({ tag: 'evil' }))[0];
      if (n) return n.data as unknown;
      await new Promise((r) => setTimeout(r, 100));
    }
    return null;
  });
  expect(evil).toEqual({ link: '/dashboard' });
  await context.close();
});
