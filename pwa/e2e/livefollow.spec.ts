import { expect, test } from './fixtures';
import { expectPlaying, goLive, liveUser } from './live';

test.use({ serviceWorkers: 'block' });
test.setTimeout(150_000);

test('a follower is told when the broadcaster goes live, opens the stream from the notice and sends a gift seen in the chat', async ({
  browser,
}) => {
  const caster = await liveUser(browser, 'star');
  const fan = await liveUser(browser, 'fan');

  // The fan follows from the broadcaster's profile.
  await fan.goto(`/users/${caster.username}`);
  await fan.getByRole('button', { name: `Follow ${caster.username}, 0 followers` }).click();
  await expect(fan.getByRole('button', { name: `Following ${caster.username}, 1 follower` })).toHaveAttribute('aria-pressed', 'true');

  // A first visit earns the daily 10 gold; the fan then waits on their profile, bell in the top bar.
  await fan.goto('/missions');
  await expect(fan.getByTestId('gold')).toHaveText(/10 gold/);
  await fan.goto('/profile');
  await expect(fan.getByRole('button', { name: 'Notifications', exact: true })).toBeVisible();

  const title = `Follow me live ${Date.now().toString(36)}`;
  const url = await goLive(caster, title);

  // The notice arrives without a reload and opens the stream.
  await expect(fan.getByRole('button', { name: 'Notifications, 1 unread' })).toBeVisible({ timeout: 45_000 });
  await fan.getByRole('button', { name: 'Notifications, 1 unread' }).click();
  await fan.getByRole('link', { name: `${caster.username} is live: ${title}` }).click();
  await expect(fan).toHaveURL(url);
  await expectPlaying(fan);
  await expect(fan.getByRole('button', { name: `Following ${caster.username}, 1 follower` })).toBeVisible();

  // A gift asks first, with its price and the balance; cancelled, nothing is sent.
  const gift = fan.getByRole('button', { name: `Gift 10 gold to ${caster.username}` });
  await gift.click();
  const confirm = fan.getByRole('dialog', { name: `Send 10 gold to ${caster.username}?` });
  await expect(confirm).toContainText('You have 10 gold; 0 gold will be left.');
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toHaveCount(0);
  await expect(caster.getByTestId('live-chat').getByTestId('live-gift')).toHaveCount(0);
  // Confirmed: the fan's gold goes to the broadcaster, and everyone sees it in the chat.
  await gift.click();
  await expect(confirm).toContainText('You have 10 gold; 0 gold will be left.');
  await confirm.getByRole('button', { name: 'Send 10 gold' }).click();
  await expect(fan.getByText('You sent 10 gold. 0 gold left.')).toBeVisible();
  await expect(caster.getByTestId('live-chat').getByTestId('live-gift')).toHaveText(/sent 10 gold/);
  await expect(fan.getByTestId('live-chat').getByTestId('live-gift')).toHaveText(/sent 10 gold/);
  // Nothing left to give: the question says so, and the shop refuses.
  await gift.click();
  await expect(confirm).toContainText('You have 0 gold: not enough for this gift.');
  await confirm.getByRole('button', { name: 'Send 10 gold' }).click();
  await expect(fan.getByRole('alert').filter({ hasText: 'You do not have enough gold' })).toBeVisible();

  await caster.getByRole('button', { name: 'End stream' }).click();
  await expect(fan.getByTestId('stream-ended')).toHaveText('This stream has ended');
  // The broadcaster's summary: what the server counted (the fan followed before the stream began).
  const summary = caster.getByTestId('stream-summary');
  await expect(summary).toBeVisible();
  const figure = (label: string) => summary.getByText(label, { exact: true }).locator('xpath=following-sibling::dd[1]');
  await expect(figure('Most viewers at once')).toHaveText('1');
  await expect(figure('Viewers in all')).toHaveText('1');
  await expect(figure('Chat messages')).toHaveText('0');
  await expect(figure('Gifts received')).toHaveText('1 gift, 10 gold');
  await expect(figure('New followers')).toHaveText('0');
  await caster.getByRole('link', { name: 'See the moderation record' }).click();
  await expect(caster.getByText('Nothing happened that needed a moderator.')).toBeVisible();
});
