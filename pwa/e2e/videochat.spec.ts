import { expect, goInApp, test, type Browser, type Page } from './fixtures';
import { baseURL } from '../playwright.config';
import { dropSocketOnMatched } from './network';
import { postSignup } from './signup';
import { Axe } from './axe';

// Service workers would serve a cached shell; these tests want the build under test.
test.use({ serviceWorkers: 'block' });
test.setTimeout(120_000);

const PASSWORD = 'a good long password';
const uniqueName = (prefix: string) => `${prefix}${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`.slice(0, 20);

/** Records every camera/microphone track and RTCPeerConnection the page creates, to check the clean-up. */
function recordMedia() {
  const w = window as unknown as { __media: { tracks: MediaStreamTrack[]; pcs: RTCPeerConnection[] } };
  w.__media = { tracks: [], pcs: [] };
  const gum = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
  navigator.mediaDevices.getUserMedia = async (c) => {
    const s = await gum(c);
    w.__media.tracks.push(...s.getTracks());
    return s;
  };
  const Native = window.RTCPeerConnection;
  window.RTCPeerConnection = class extends Native {
    constructor(...args: ConstructorParameters<typeof RTCPeerConnection>) {
      super(...args);
      w.__media.pcs.push(this);
    }
  };
}

async function videoUser(
  browser: Browser,
  prefix: string,
  gender: 'male' | 'female',
  viewport?: { width: number; height: number },
  origin = baseURL,
): Promise<Page> {
  const context = await browser.newContext({
    baseURL: origin,
    serviceWorkers: 'block',
    permissions: ['camera', 'microphone'],
    ...(viewport ? { viewport } : {}),
  });
  const page = await context.newPage();
  page.on('pageerror', (err) => console.error(`[${prefix}] page error:`, err.message));
  page.on('console', (m) => (m.type() === 'error' || process.env.VIDEO_E2E_DEBUG) && console.error(`[${prefix}] console:`, m.text()));
  await page.addInitScript(recordMedia);
  const res = await postSignup(page.request, { data: { username: uniqueName(prefix), password: PASSWORD, age: 30, gender } });
  expect(res.status(), await res.text()).toBe(201);
  await page.goto('/videochat');
  await expect(page.getByRole('heading', { name: 'Video chat', level: 1 })).toBeAttached();
  // The local preview plays before any search (previewVideoIsLoaded hides the placeholder).
  await expect(page.getByTestId('preview-placeholder')).toBeHidden();
  await expect(page.getByRole('button', { name: 'Start', exact: true })).toBeEnabled();
  return page;
}

/** The partner's video is playing: it has a size, its time advances, and its stream carries audio. */
async function expectPartnerPlaying(page: Page) {
  const remote = page.getByTestId('remote-video');
  await expect(remote).toBeVisible({ timeout: 20_000 });
  await expect.poll(() => remote.evaluate((v: HTMLVideoElement) => v.videoWidth), { timeout: 20_000 }).toBeGreaterThan(0);
  const t0 = await remote.evaluate((v: HTMLVideoElement) => v.currentTime);
  await expect.poll(() => remote.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 30_000 }).toBeGreaterThan(t0);
  const audio = await remote.evaluate(
    (v: HTMLVideoElement) => (v.srcObject as MediaStream).getAudioTracks().filter((t) => t.readyState === 'live').length,
  );
  expect(audio).toBeGreaterThan(0);
}

/** Mean luminance gradient of the partner's video over a few frames: high when sharp, low when blurred. */
function sharpness(page: Page): Promise<number> {
  return page.getByTestId('remote-video').evaluate(async (v: HTMLVideoElement) => {
    const c = document.createElement('canvas');
    c.width = 160;
    c.height = 120;
    const ctx = c.getContext('2d', { willReadFrequently: true })!;
    let total = 0;
    for (let i = 0; i < 5; i++) {
      // The next new frame (or 200 ms, so a stalled video reads as unchanged rather than hanging).
      await Promise.race([new Promise((r) => v.requestVideoFrameCallback(() => r(null))), new Promise((r) => setTimeout(r, 200))]);
      ctx.drawImage(v, 0, 0, c.width, c.height);
      const d = ctx.getImageData(0, 0, c.width, c.height).data;
      let g = 0;
      for (let y = 0; y < c.height; y++)
        for (let x = 0; x < c.width - 1; x++) {
          const p = (y * c.width + x) * 4;
          const l = (o: number) => 0.299 * d[o]! + 0.587 * d[o + 1]! + 0.114 * d[o + 2]!;
          g += Math.abs(l(p) - l(p + 4));
        }
      total += g / (c.width * c.height);
    }
    return total / 5;
  });
}

const messages = (page: Page) => page.getByRole('list', { name: 'Messages' });

test('two strangers see and hear each other, chat beside the video, blur what the partner gets, skip and meet again', async ({
  browser,
}) => {
  const a = await videoUser(browser, 'va', 'female');
  const b = await videoUser(browser, 'vb', 'male');

  const axe = await new Axe({ page: a }).analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);

  await a.getByRole('button', { name: 'Start', exact: true }).click();
  await expect(a.getByRole('button', { name: 'Searching…' })).toBeVisible();
  await b.getByRole('button', { name: 'Start', exact: true }).click();
  await expectPartnerPlaying(a);
  await expectPartnerPlaying(b);

  // Text chat beside the video, both ways.
  await a.getByRole('textbox', { name: 'Message' }).fill('hello from a');
  await a.getByRole('textbox', { name: 'Message' }).press('Enter');
  await expect(messages(b).getByText('hello from a')).toBeVisible();
  await b.getByRole('textbox', { name: 'Message' }).fill('hi back');
  await b.getByRole('button', { name: 'Send' }).click();
  await expect(messages(a).getByText('hi back')).toBeVisible();
  await expect(messages(a).getByText('Delivered')).toBeVisible();

  // The chat panel offers a friend request and a rating for this partner, readable on the dark panel.
  const actions = a.getByRole('group', { name: /^What to do about / });
  await expect(actions.getByRole('button', { name: 'Add friend' })).toBeVisible();
  await actions.getByRole('button', { name: /^Thumbs up for / }).click();
  await expect(actions).toContainText('Rated, thank you');
  const panelAxe = await new Axe({ page: a }).include('#video-chat-panel').analyze();
  expect(panelAxe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);

  // Blur on at A changes what B receives: the picture loses its sharp edges.
  const before = await sharpness(b);
  await a.getByRole('button', { name: 'Settings' }).click();
  await a.getByRole('radio', { name: 'Blur background' }).check();
  await expect.poll(() => sharpness(b), { timeout: 45_000 }).toBeLessThan(before * 0.6);
  // The person-segmentation model answers from its worker (masks reach the filter).
  const preview = a.getByTestId('local-preview');
  await expect
    .poll(() => preview.evaluate((el) => Number((el as HTMLElement).dataset.maskFps ?? 0)), { timeout: 45_000 })
    .toBeGreaterThan(0);
  // WebGL here is SwiftShader (the CPU): the filter keeps to the camera's planes rather than the GPU path.
  await expect(preview).toHaveAttribute('data-filter-path', 'planes');
  // And back: the camera as it is.
  await a.getByRole('radio', { name: 'None' }).check();
  await expect.poll(() => sharpness(b), { timeout: 45_000 }).toBeGreaterThan(before * 0.7);

  // Switching the microphone mid-call swaps the sent track on the same connection (no new call).
  const pcCount = () => a.evaluate(() => (window as unknown as { __media: { pcs: RTCPeerConnection[] } }).__media.pcs.length);
  const pcsBefore = await pcCount();
  const microphones = await a
    .getByLabel('Microphone')
    .locator('option')
    .evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value).filter(Boolean));
  expect(microphones.length, 'Chromium offers several fake microphones').toBeGreaterThan(1);
  await a.getByLabel('Microphone').selectOption(microphones[1]!);
  await expect
    .poll(() =>
      a.evaluate((id) => {
        const pcs = (window as unknown as { __media: { pcs: RTCPeerConnection[] } }).__media.pcs;
        return (
          pcs
            .at(-1)!
            .getSenders()
            .find((s) => s.track?.kind === 'audio')
            ?.track?.getSettings().deviceId === id
        );
      }, microphones[1]!),
    )
    .toBe(true);
  expect(await pcCount()).toBe(pcsBefore);
  await expectPartnerPlaying(b);

  // Next at A ends the call on both sides.
  await a.getByRole('button', { name: 'Next' }).click();
  await expect(b.getByTestId('video-status')).toHaveText('Stranger has disconnected');
  await expect(b.getByTestId('remote-video')).toBeHidden();
  await expect(a.getByRole('button', { name: 'Searching…' })).toBeVisible();
  const closedPcs = (p: Page) =>
    p.evaluate(() =>
      (window as unknown as { __media: { pcs: RTCPeerConnection[] } }).__media.pcs.every((pc) => pc.signalingState === 'closed'),
    );
  await expect.poll(() => closedPcs(b)).toBe(true);

  // Both can meet again.
  await b.getByRole('button', { name: 'Next' }).click();
  await expectPartnerPlaying(a);
  await expectPartnerPlaying(b);

  // Leaving the page releases the camera and microphone and closes every peer connection.
  await goInApp(a, '/dashboard');
  await expect(a).toHaveURL(/\/dashboard/);
  await expect
    .poll(() =>
      a.evaluate(() => {
        const m = (window as unknown as { __media: { tracks: MediaStreamTrack[]; pcs: RTCPeerConnection[] } }).__media;
        return {
          tracks: m.tracks.length > 0,
          liveTracks: m.tracks.filter((t) => t.readyState === 'live').length,
          openPcs: m.pcs.filter((pc) => pc.signalingState !== 'closed').length,
        };
      }),
    )
    .toEqual({ tracks: true, liveTracks: 0, openPcs: 0 });
  await expect(b.getByTestId('video-status')).toHaveText('Stranger has disconnected');
  await expect.poll(() => closedPcs(b)).toBe(true);
});

test('a network drop of a few seconds keeps the video chat: the call goes on and what was said meanwhile arrives once', async ({
  browser,
}) => {
  test.setTimeout(150_000);
  // socket.io's client only reacts to the browser's "offline" event away from the host name
  // localhost, as it would for a phone losing its network: A's page uses the loopback address.
  const a = await videoUser(browser, 'da', 'female', undefined, baseURL.replace('localhost', '127.0.0.1'));
  const b = await videoUser(browser, 'db', 'male');
  await a.getByRole('button', { name: 'Start', exact: true }).click();
  await b.getByRole('button', { name: 'Start', exact: true }).click();
  await expectPartnerPlaying(a);
  await expectPartnerPlaying(b);
  const pcCount = (p: Page) => p.evaluate(() => (window as unknown as { __media: { pcs: RTCPeerConnection[] } }).__media.pcs.length);
  const pcsBefore = [await pcCount(a), await pcCount(b)];

  await a.context().setOffline(true);
  const droppedAt = Date.now();
  // Seen in seconds, well before the server's ping would notice (10 s apart, 8 s to answer);
  // on a loaded machine the browser's closing and both pages' rendering can take several.
  await expect(a.getByTestId('video-status')).toContainText('Connection lost. Reconnecting…', { timeout: 10_000 });
  await expect(b.getByTestId('video-status')).toContainText('Stranger lost their connection', { timeout: 10_000 });
  // B's message is kept for A (sent, not yet delivered).
  await b.getByRole('textbox', { name: 'Message' }).fill('can you hear me?');
  await b.getByRole('textbox', { name: 'Message' }).press('Enter');
  await expect(messages(b).getByRole('listitem').filter({ hasText: 'can you hear me?' })).toContainText('Sent');
  // A drop of a few seconds, however long the checks above took: the room is held 15 s from it.
  await a.waitForTimeout(Math.max(0, 4000 - (Date.now() - droppedAt)));
  await a.context().setOffline(false);

  // Back within the grace: the same room and the same call, nobody was told the stranger left.
  await expect(a.getByTestId('video-status')).toBeHidden({ timeout: 12_000 });
  await expect(b.getByTestId('video-status')).toBeHidden();
  await expect(messages(a).getByRole('listitem').filter({ hasText: 'can you hear me?' })).toHaveCount(1);
  await expect(messages(b).getByRole('listitem').filter({ hasText: 'can you hear me?' })).toContainText('Delivered');
  await expectPartnerPlaying(a);
  await expectPartnerPlaying(b);
  expect([await pcCount(a), await pcCount(b)]).toEqual(pcsBefore);
  await a.getByRole('textbox', { name: 'Message' }).fill('loud and clear');
  await a.getByRole('textbox', { name: 'Message' }).press('Enter');
  await expect(messages(b).getByText('loud and clear')).toBeVisible();
  await Promise.all([a.context().close(), b.context().close()]);
});

test('a call that could not be set up is placed again by itself, under fresh peer ids', async ({ browser }) => {
  const a = await videoUser(browser, 'ra', 'female');
  const b = await videoUser(browser, 'rb', 'male');
  // A's first connection to the signalling server fails, as on a network that hiccups just then.
  const peerIds: string[] = [];
  await a.routeWebSocket(/\/peerjs\/peerjs/, (ws) => {
    peerIds.push(new URL(ws.url()).searchParams.get('id') ?? '');
    if (peerIds.length === 1) return void ws.close({ code: 1011, reason: 'network gone' });
    ws.connectToServer();
  });
  await a.getByRole('button', { name: 'Start', exact: true }).click();
  await b.getByRole('button', { name: 'Start', exact: true }).click();
  // The failure is not shown as final: the page says it connects again.
  await expect(a.getByTestId('video-status')).toContainText('The video was interrupted. Connecting to');
  await expectPartnerPlaying(a);
  await expectPartnerPlaying(b);
  expect(peerIds).toHaveLength(2);
  expect(peerIds[1]).not.toBe(peerIds[0]);
  for (const p of [a, b]) await expect(p.getByRole('alert')).toHaveCount(0);
  await b.getByRole('textbox', { name: 'Message' }).fill('there you are');
  await b.getByRole('textbox', { name: 'Message' }).press('Enter');
  await expect(messages(a).getByText('there you are')).toBeVisible();
  await Promise.all([a.context().close(), b.context().close()]);
});

test('a video match lost in a dropped connection reaches the page once it is back, call and all', async ({ browser }) => {
  const a = await videoUser(browser, 'la', 'female');
  const b = await videoUser(browser, 'lb', 'male');
  // A's first connection dies just as the server tells her of her match, while the server's end stays open.
  const dropped = await dropSocketOnMatched(a);
  // Her page connects again, through the route.
  await a.reload();
  await expect(a.getByTestId('preview-placeholder')).toBeHidden();
  await expect(a.getByRole('button', { name: 'Start', exact: true })).toBeEnabled();
  await a.getByRole('button', { name: 'Start', exact: true }).click();
  await expect(a.getByTestId('video-status')).toContainText('Looking for someone');
  await b.getByRole('button', { name: 'Start', exact: true }).click();
  await expectPartnerPlaying(a);
  await expectPartnerPlaying(b);
  expect(dropped()).toBe(true);
  await expect(b.getByText('Stranger has disconnected')).toHaveCount(0);
  await a.getByRole('textbox', { name: 'Message' }).fill('sorry, my train went into a tunnel');
  await a.getByRole('textbox', { name: 'Message' }).press('Enter');
  await expect(messages(b).getByText('sorry, my train went into a tunnel')).toBeVisible();
  await Promise.all([a.context().close(), b.context().close()]);
});

test('a denied camera and microphone are explained, and the page still works for text', async ({ browser }) => {
  const context = await browser.newContext({ baseURL, serviceWorkers: 'block' });
  const page = await context.newPage();
  await page.addInitScript(() => {
    navigator.mediaDevices.getUserMedia = () => Promise.reject(new DOMException('Permission denied', 'NotAllowedError'));
  });
  const res = await postSignup(page.request, {
    data: { username: uniqueName('vd'), password: PASSWORD, age: 30, gender: 'other' },
  });
  expect(res.status()).toBe(201);
  await page.goto('/videochat');
  const alert = page.getByRole('alert').filter({ hasText: 'Parley may not use your camera' });
  await expect(alert).toBeVisible();
  await expect(alert).toContainText('Allow the camera for this site');
  await expect(alert).toContainText('You can still chat by text');
  await expect(page.getByRole('button', { name: 'Try again' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Start', exact: true })).toBeEnabled();
  await expect(page.getByTestId('preview-placeholder')).toHaveText('Your camera is off');
  await context.close();
});

test('on a phone the partner fills the screen, the own preview is small and the controls sit at the thumb', async ({ browser }) => {
  const phone = { width: 390, height: 844 };
  const a = await videoUser(browser, 'pa', 'female', phone);
  const b = await videoUser(browser, 'pb', 'male', phone);
  // The page fills the screen; outside a call it has its own way home.
  await expect(a.getByRole('link', { name: 'Dashboard', exact: true })).toBeVisible();
  const axeIdle = await new Axe({ page: a }).analyze();
  expect(axeIdle.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  // Every progress line shown over the partner's card, however briefly, from before the match.
  await a.evaluate(() => {
    const w = window as unknown as { connectingLines: string[] };
    w.connectingLines = [];
    new MutationObserver(() => {
      const line = document.querySelector('[data-testid="partner-connecting"] [role="status"]')?.textContent;
      if (line && !w.connectingLines.includes(line)) w.connectingLines.push(line);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  await a.getByRole('button', { name: 'Start', exact: true }).click();
  await b.getByRole('button', { name: 'Start', exact: true }).click();
  await expectPartnerPlaying(a);
  // From the match to the partner's picture, the partner's card said what was happening, in words.
  expect(await a.evaluate(() => (window as unknown as { connectingLines: string[] }).connectingLines)).toEqual([
    expect.stringMatching(/^Connecting to pb\w+…$/),
  ]);
  await expect(a.getByTestId('partner-connecting')).toHaveCount(0);
  // The partner's name and age are on screen without opening the chat.
  const tag = a.getByTestId('partner-tag');
  await expect(tag).toBeVisible();
  await expect(tag).toContainText(/pb\w* · 30 · Male/);
  const remote = (await a.getByTestId('remote-video').boundingBox())!;
  const preview = (await a.getByTestId('local-preview').boundingBox())!;
  const controls = (await a.getByRole('toolbar', { name: 'Video chat controls' }).boundingBox())!;
  expect(remote.width).toBe(phone.width);
  expect(remote.height).toBeGreaterThan(phone.height * 0.6);
  expect(preview.width * preview.height).toBeLessThan(phone.width * phone.height * 0.1);
  expect(controls.y + controls.height).toBeGreaterThan(phone.height * 0.9);
  // Next is the large button at the thumb.
  const next = (await a.getByRole('button', { name: 'Next' }).boundingBox())!;
  expect(next.height).toBeGreaterThanOrEqual(56);
  expect(next.y + next.height).toBeGreaterThan(phone.height * 0.85);
  // The chat opens over the video; a long unbroken word or link wraps inside it.
  await a.getByRole('button', { name: 'Chat', exact: true }).click();
  await expect(a.getByRole('textbox', { name: 'Message' })).toBeVisible();
  await b.getByRole('button', { name: 'Chat', exact: true }).click();
  const long = `https://example.com/${'a'.repeat(300)}`;
  await b.getByRole('textbox', { name: 'Message' }).fill(long);
  await b.getByRole('textbox', { name: 'Message' }).press('Enter');
  await expect(a.getByRole('list', { name: 'Messages' }).getByText(long)).toBeVisible();
  for (const p of [a, b]) {
    const panel = p.locator('#video-chat-panel');
    expect(await panel.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
    expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(phone.width);
  }
  const axe = await new Axe({ page: a }).analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  await a.getByRole('button', { name: 'Stop' }).click();
  await expect(b.getByTestId('video-status')).toHaveText('Stranger has disconnected');
});
