import { expect, test, type Page } from './fixtures';
import { expectPlaying, goLive, liveUser as user, PHONE, published } from './live';
import { switchableSocket } from './network';
import { Axe } from './axe';

// Service workers would serve a cached shell; these tests want the build under test.
test.use({ serviceWorkers: 'block' });
// Three pages with live video, a late fourth, and axe on three: 30 s alone, 50 s beside two busy
// cores, and past 150 s on a slow CI machine beside the PostgreSQL pass and another video spec.
test.setTimeout(240_000);

/**
 * Opens a stream and answers how long from asking to watch to the first frame painted (ms), from
 * the page's own marks. The app's cold start before that (sign-in restore, socket) is logged apart.
 */
async function openAndTimeFirstFrame(page: Page, url: string): Promise<number> {
  const t0 = Date.now();
  await page.goto(url);
  const video = page.getByTestId('live-video');
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.videoWidth), { timeout: 45_000 }).toBeGreaterThan(0);
  // The frame callback can land a moment after the size is known: wait for the mark itself.
  const readMarks = () =>
    page.evaluate(() => Object.fromEntries(performance.getEntriesByType('mark').map((m) => [m.name, Math.round(m.startTime)])));
  await expect.poll(async () => (await readMarks())['live:firstFrame'] ?? -1, { timeout: 5_000 }).toBeGreaterThanOrEqual(0);
  const marks = await readMarks();
  console.log('late join marks (ms since navigation):', JSON.stringify(marks), 'open to first frame:', Date.now() - t0);
  return marks['live:firstFrame']! - marks['live:watch']!;
}

test('a broadcaster goes live, two viewers watch and chat, a moderator acts, the stream ends for everyone', async ({ browser }) => {
  // A title of its own, so a retry never meets the stream of an earlier attempt.
  const title = `Live from the e2e kitchen ${Date.now().toString(36)}`;
  const caster = await user(browser, 'cast');
  const url = await goLive(caster, title);

  // The stream is listed for others.
  const phone = await user(browser, 'phone', PHONE);
  await (await published(phone, title)).click();
  await expectPlaying(phone);

  const desk = await user(browser, 'desk');
  await desk.goto(url);
  await expectPlaying(desk);
  await expect(caster.getByTestId('viewer-count')).toHaveText('2');
  await expect(phone.getByTestId('viewer-count')).toHaveText('2');

  // A long unbroken link wraps in the stream's chat on the phone: nothing grows wider than the screen.
  const long = `https://example.com/${'z'.repeat(300)}`;
  await desk.getByLabel('Message the stream').fill(long);
  await desk.getByRole('button', { name: 'Send' }).click();
  await expect(phone.getByTestId('live-chat')).toContainText(long);
  expect(await phone.getByTestId('live-chat').evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
  expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);

  // Chat, and the broadcaster mutes a spammer.
  await desk.getByLabel('Message the stream').fill('buy followers cheap');
  await desk.getByRole('button', { name: 'Send' }).click();
  await expect(phone.getByTestId('live-chat')).toContainText('buy followers cheap');
  await expect(caster.getByTestId('live-chat')).toContainText('buy followers cheap');
  await caster
    .getByTestId('live-chat')
    .getByRole('listitem')
    .filter({ hasText: 'buy followers cheap' })
    .getByRole('button', { name: /^Delete message from/ })
    .click();
  await expect(phone.getByTestId('live-chat')).not.toContainText('buy followers cheap');
  await desk.getByLabel('Message the stream').fill('again');
  await desk.getByRole('button', { name: 'Send' }).click();
  await expect(caster.getByTestId('live-chat')).toContainText('again');
  await caster
    .getByRole('button', { name: /^Mute / })
    .first()
    .click();
  // The same menu as a group room: the first mute is for 10 minutes, and the muted viewer is told for how long.
  await expect(desk.getByText(/Muted for (9|10) min/)).toBeVisible();

  // The phone layout is accessible, and so are the dark chat's moderator buttons and its muted line.
  for (const page of [phone, caster, desk]) {
    const axe = await new Axe({ page }).analyze();
    expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  }

  // A late joiner gets a picture. How soon is bench:live's figure (pinned, beside its reference): on a
  // busy test machine a time here would measure the machine, so it is only logged.
  const late = await user(browser, 'late');
  const firstFrameMs = await openAndTimeFirstFrame(late, url);
  expect(firstFrameMs).toBeGreaterThanOrEqual(0);
  await expect(caster.getByTestId('viewer-count')).toHaveText('3');
  await expect(late.getByTestId('viewer-count')).toHaveText('3');

  await caster.getByRole('button', { name: 'End stream' }).click();
  for (const p of [phone, desk, late]) await expect(p.getByTestId('stream-ended')).toHaveText('This stream has ended');
  await phone.goto('/livestream');
  await expect(phone.getByRole('link', { name: new RegExp(title) })).toHaveCount(0);
});

test('an unknown stream shows a not-found page', async ({ browser }) => {
  const page = await user(browser, 'lost');
  await page.goto('/livestream/00000000-0000-0000-0000-000000000000');
  await expect(page.getByText("We couldn't find that stream")).toBeVisible();
});

test('a viewer’s message written while the connection is down goes once it is back, once', async ({ browser }) => {
  const caster = await user(browser, 'offcast');
  const url = await goLive(caster, `Offline chat ${Date.now().toString(36)}`);
  const viewer = await user(browser, 'offview');
  const network = await switchableSocket(viewer);
  await viewer.goto(url);
  await expectPlaying(viewer);
  await viewer.getByLabel('Message the stream').fill('before the tunnel');
  await viewer.getByRole('button', { name: 'Send' }).click();
  await expect(caster.getByTestId('live-chat')).toContainText('before the tunnel');

  await network.cut();
  await viewer.getByLabel('Message the stream').fill('written in the tunnel');
  await viewer.getByRole('button', { name: 'Send' }).click();
  await expect(viewer.getByTestId('live-pending')).toContainText('written in the tunnel');
  network.restore();
  // Back: the page watches again, its chat catches up, and the waiting message goes.
  await expect(caster.getByTestId('live-chat')).toContainText('written in the tunnel', { timeout: 30_000 });
  await expect(viewer.getByTestId('live-pending')).toHaveCount(0);
  await expect(viewer.getByTestId('live-chat').getByText('written in the tunnel')).toHaveCount(1);
  await expect(caster.getByTestId('live-chat').getByText('written in the tunnel')).toHaveCount(1);

  // Video off, chat on (to save data): still a viewer, still in the chat; the video comes back on a tap.
  await viewer.getByRole('button', { name: 'Chat only (video off)' }).click();
  await expect(viewer.getByTestId('live-video-off')).toBeVisible();
  await expect(caster.getByTestId('viewer-count')).toHaveText('1');
  await viewer.getByLabel('Message the stream').fill('reading without video');
  await viewer.getByRole('button', { name: 'Send' }).click();
  await expect(caster.getByTestId('live-chat')).toContainText('reading without video');
  await viewer.getByRole('button', { name: 'Turn video on' }).click();
  await expectPlaying(viewer);
});
