import http from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { io, type Socket } from 'socket.io-client';
import { REALTIME_PROTOCOL } from '@parley/contract/protocol';
import type { PostAnswer } from '@parley/contract/rooms';
import type { OpenDirectAnswer } from '@parley/contract/direct';
import { expect, test, type Browser, type Page } from './fixtures';
import { startOwnServer } from './ownServer';
import { befriend, messageItem, send, signUp, uniqueName } from './people';
import { Axe } from './axe';

test.use({ serviceWorkers: 'block' });

// A server of this spec's own, allowed (LINK_PREVIEW_ALLOW, off by default) to fetch one local
// stand-in web site for link previews; every other local address stays refused.
let server: Awaited<ReturnType<typeof startOwnServer>> | undefined;
let site: http.Server;
let siteBase = '';
const siteAsked: Array<{ url: string; agent: string }> = [];

test.beforeAll(async () => {
  // A 2×2 PNG: the server re-encodes it before any browser sees it.
  const png = await sharp({ create: { width: 2, height: 2, channels: 3, background: '#2266aa' } })
    .png()
    .toBuffer();
  site = http.createServer((req, res) => {
    siteAsked.push({ url: req.url ?? '', agent: String(req.headers['user-agent']) });
    if (req.url === '/harbour.png') {
      return res.writeHead(200, { 'content-type': 'image/png' }).end(png);
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(
      `<!doctype html><title>fallback</title><meta property="og:title" content="The harbour guide">
       <meta property="og:description" content="Tides, boats and where to eat."><meta property="og:image" content="/harbour.png">`,
    );
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteBase = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  server = await startOwnServer(5, { LINK_PREVIEW_ALLOW: siteBase.slice('http://'.length) });
});
test.afterAll(async () => {
  await server?.stop();
  site?.close();
});

async function pageAt(browser: Browser, viewport: { width: number; height: number }): Promise<Page> {
  const context = await browser.newContext({ baseURL: server!.url, serviceWorkers: 'block', viewport });
  return context.newPage();
}

function socketAt(url: string, who: { token: string; userId: string; username: string }): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = io(url, {
      path: '/socket.io',
      transports: ['websocket'],
      auth: { token: who.token, protocol: REALTIME_PROTOCOL },
      query: { userId: who.userId, username: who.username },
    });
    s.once('connect', () => resolve(s));
    s.once('connect_error', reject);
  });
}

async function axeClean(page: Page) {
  const { violations } = await new Axe({ page }).analyze();
  expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

test('search finds an old direct message and opens the conversation at it; a link shows a preview served by our server', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const [a, b] = await Promise.all([pageAt(browser, { width: 1280, height: 800 }), pageAt(browser, { width: 390, height: 844 })]);
  const ana = await signUp(a, uniqueName('ana'));
  const bo = await signUp(b, uniqueName('bo'));
  await befriend(a, ana.token, b, bo.token, bo.username);
  const opened = await a.request.post(`/api/direct/${bo.username}`, { headers: { authorization: `Bearer ${ana.token}` } });
  const { roomId } = (await opened.json()) as OpenDirectAnswer;

  // An old message, then 90 newer ones: the conversation opens with the latest 50, and the page around the
  // old one (25 either side) leaves a stretch between them.
  const [sa, sb] = await Promise.all([socketAt(server!.url, ana), socketAt(server!.url, bo)]);
  const post = async (s: Socket, clientId: string, text: string) => {
    for (;;) {
      const answer = (await s.timeout(10_000).emitWithAck('room:post', { roomId, clientId, text })) as PostAnswer;
      if (answer.ok) return;
      await new Promise((r) => setTimeout(r, 1000));
    }
  };
  await post(sa, 'old', 'The lighthouse keeper recipe is in the blue notebook');
  const fill = async (s: Socket, who: string) => {
    for (let i = 1; i <= 45; i++) await post(s, `${who}${i}`, `${who} filler ${i}`);
  };
  await Promise.all([fill(sa, 'ana'), fill(sb, 'bo')]);
  sa.disconnect();
  sb.disconnect();

  // From the messages page, the search page; the hit shows where, who, and the match marked.
  await a.goto('/messages');
  await a.getByRole('link', { name: 'Search messages' }).first().click();
  await a.getByLabel('Words to find').fill('lighthouse');
  await a.getByLabel('Words to find').press('Enter');
  const hit = a.getByTestId('search-hit');
  await expect(hit).toHaveCount(1);
  await expect(hit).toContainText(`with @${bo.username}`);
  await expect(hit.locator('mark')).toHaveText('lighthouse');
  await axeClean(a);

  // Opening it loads the messages around it: it is shown, outlined and focused.
  await hit.click();
  await expect(a).toHaveURL(new RegExp(`/messages/${bo.username}\\?message=1$`));
  const target = messageItem(a, 'The lighthouse keeper recipe');
  await expect(target).toHaveAttribute('data-highlighted', 'true');
  await expect(target).toBeFocused();
  await expect(target).toBeInViewport();
  // What lies between it and the latest messages comes on request.
  const held = a.getByRole('log').locator('li[data-message-id]');
  await expect(held).toHaveCount(26 + 50);
  await a.getByRole('button', { name: 'Load newer messages' }).click();
  await expect(held).toHaveCount(91);
  await expect(a.getByRole('button', { name: 'Load newer messages' })).toHaveCount(0);

  // Bo, on a phone, sends a link: Ana sees a link that opens in a new tab, and a preview whose image is ours.
  await b.goto(`/messages/${ana.username}`);
  await send(b, `Look at ${siteBase}/guide before Saturday`);
  const linkMessage = messageItem(a, 'before Saturday');
  const link = linkMessage.getByRole('link', { name: `${siteBase}/guide` });
  await expect(link).toHaveAttribute('rel', 'noopener noreferrer nofollow ugc');
  await expect(link).toHaveAttribute('target', '_blank');
  const card = linkMessage.getByTestId('link-preview');
  await expect(card).toContainText('The harbour guide');
  await expect(card).toContainText('Tides, boats and where to eat.');
  const image = card.locator('img');
  await expect(image).toHaveAttribute('src', /^\/api\/links\/image\?/);
  // The image loads once it comes into view (Ana is still reading the older messages).
  await card.scrollIntoViewIfNeeded();
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(2);
  // Only the server asked the site, never a browser.
  expect(siteAsked.map((r) => r.url)).toEqual(['/guide', '/harbour.png']);
  expect(siteAsked.every((r) => r.agent.startsWith('ParleyLinkPreview'))).toBe(true);
  await axeClean(a);

  // The phone sees the same, and its search page fits and passes too.
  await expect(messageItem(b, 'before Saturday').getByTestId('link-preview')).toContainText('The harbour guide');
  await b.goto(`/search?q=lighthouse`);
  await expect(b.getByTestId('search-hit')).toHaveCount(1);
  expect(await b.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await axeClean(b);
});
