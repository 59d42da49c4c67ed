import { expect, test, type Page } from './fixtures';
import { expectPlaying, goLive, liveUser as user, PHONE, published } from './live';
import { Axe } from './axe';

// Service workers would serve a cached shell; these tests want the build under test.
test.use({ serviceWorkers: 'block' });
test.setTimeout(180_000);

async function expectAxeClean(page: Page) {
  const axe = await new Axe({ page }).analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

async function say(page: Page, text: string) {
  await page.getByLabel('Message the stream').fill(text);
  await page.getByRole('button', { name: 'Send' }).click();
}

test('the broadcaster and a moderator lift mutes and bans and set slow mode from the live page; the record and the summary tell what happened', async ({
  browser,
}) => {
  const caster = await user(browser, 'modcast');
  const title = `Moderated ${Date.now().toString(36)}`;
  const url = await goLive(caster, title);
  const mod = await user(browser, 'modphone', PHONE);
  const troll = await user(browser, 'troll');
  await published(mod, title);
  for (const p of [mod, troll]) {
    await p.goto(url);
    await expectPlaying(p);
  }
  await expect(caster.getByTestId('viewer-count')).toHaveText('2');
  // Viewers have no moderation.
  await expect(troll.getByTestId('live-moderation')).toHaveCount(0);
  await expect(caster.getByTestId('live-moderation').getByText('Nobody is muted.')).toBeVisible();

  // The broadcaster makes the phone viewer a moderator from the chat; their page gains the panel.
  await say(mod, 'happy to help');
  await caster.getByRole('button', { name: `Make ${mod.username} a moderator` }).click();
  const panel = mod.getByTestId('live-moderation');
  await expect(panel.getByText('Nobody is muted.')).toBeVisible();
  await expect(panel.getByRole('link', { name: 'Moderation record' })).toHaveCount(0);

  // The moderator mutes the troll from the chat; the list shows them, and lifting it lets them write again.
  await say(troll, 'spam spam spam');
  await expect(mod.getByTestId('live-chat')).toContainText('spam spam spam');
  await mod.getByRole('button', { name: `Mute ${troll.username} 10 min` }).click();
  await expect(troll.getByText(/Muted for (9|10) min/)).toBeVisible();
  const unmute = panel.getByRole('button', { name: `Unmute ${troll.username}` });
  await expect(unmute).toBeVisible();
  await expect(caster.getByRole('button', { name: `Unmute ${troll.username}` })).toBeVisible();
  // The phone's panel fits the screen and is clean for assistive technology, as is the broadcaster's.
  expect(await mod.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  await expectAxeClean(mod);
  await expectAxeClean(caster);
  // By keyboard.
  await unmute.focus();
  await mod.keyboard.press('Enter');
  await expect(panel.getByText('Nobody is muted.')).toBeVisible();
  await expect(troll.getByText(/Muted for/)).toHaveCount(0);
  await say(troll, 'sorry, all good now');
  await expect(caster.getByTestId('live-chat')).toContainText('sorry, all good now');

  // Slow mode, set and cleared by the broadcaster, with the group rooms' choices.
  const slow = caster.getByTestId('live-moderation').getByLabel('Slow mode');
  await slow.selectOption({ label: '30 seconds between messages' });
  await expect(panel.getByLabel('Slow mode')).toHaveValue('30');
  // The troll wrote a moment ago: the next line must wait.
  await say(troll, 'second too soon');
  await expect(troll.getByText(/slow mode/i).first()).toBeVisible();
  await expect(caster.getByTestId('live-chat')).not.toContainText('second too soon');
  await slow.selectOption({ label: 'Off' });
  await expect(slow).toHaveValue('0');

  // A ban with a reason; the list shows it with the reason, and lifting it lets them watch again.
  await caster
    .getByRole('button', { name: `Ban ${troll.username}` })
    .first()
    .click();
  await caster.getByRole('dialog').getByLabel('Reason (optional)').fill('spamming links');
  await caster.getByRole('dialog').getByRole('button', { name: 'Ban' }).click();
  await expect(troll.getByText('The broadcaster removed you from this stream.').first()).toBeVisible();
  await expect(panel.getByText(`${troll.username} (spamming links)`)).toBeVisible();
  await caster.getByRole('button', { name: `Unban ${troll.username}` }).click();
  await expect(caster.getByTestId('live-moderation').getByText('Nobody is banned.')).toBeVisible();
  await troll.getByRole('button', { name: 'Try again' }).click();
  await expect(troll.getByRole('alert')).toHaveCount(0);
  await expect(caster.getByTestId('viewer-count')).toHaveText('2');

  // The broadcaster's record of the stream, from the live page.
  await caster.getByRole('link', { name: 'Moderation record' }).click();
  await expect(caster).toHaveURL(`${url}/record`);
  const record = caster.getByTestId('live-record');
  await expect(record).toContainText(`${mod.username} muted ${troll.username} for 10 minutes`);
  await expect(record).toContainText(`${mod.username} unmuted ${troll.username}`);
  await expect(record).toContainText(`${caster.username} set slow mode to 30 seconds between messages`);
  await expect(record).toContainText(`${caster.username} turned slow mode off`);
  await expect(record).toContainText(`${caster.username} banned ${troll.username} (spamming links)`);
  await expect(record).toContainText(`${caster.username} lifted the ban on ${troll.username}`);
  await expect(record).toContainText(`${caster.username} made ${mod.username} a moderator`);
  await expectAxeClean(caster);
  // Nobody else's: the moderator is told so.
  await mod.goto(`${url}/record`);
  await expect(mod.getByRole('alert')).toHaveText('Only the broadcaster can see this stream’s record.');
});

test('a viewer watches in full screen and leaves it by keyboard', async ({ browser }) => {
  const caster = await user(browser, 'fscast');
  const title = `Full screen ${Date.now().toString(36)}`;
  const url = await goLive(caster, title);
  const viewer = await user(browser, 'fsview', PHONE);
  await published(viewer, title);
  await viewer.goto(url);
  await expectPlaying(viewer);
  const enter = viewer.getByRole('button', { name: 'Full screen' });
  await enter.focus();
  await viewer.keyboard.press('Enter');
  await expect
    .poll(() => viewer.evaluate(() => document.fullscreenElement?.contains(document.querySelector('[data-testid="live-video"]')) ?? false))
    .toBe(true);
  const exit = viewer.getByRole('button', { name: 'Exit full screen' });
  await expect(exit).toHaveAttribute('aria-pressed', 'true');
  await exit.focus();
  await viewer.keyboard.press('Enter');
  await expect.poll(() => viewer.evaluate(() => document.fullscreenElement)).toBeNull();
  await expect(viewer.getByRole('button', { name: 'Full screen' })).toBeVisible();
  await expectAxeClean(viewer);
});
