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
  await expect(fan.getByRole('button', { name: 'Notifications, 1 unread' })).toBeVisible({ timeout: 15_000 });
  await fan.getByRole('button', { name: 'Notifications, 1 unread' }).click();
  await fan.getByRole('link', { name: `${caster.username} is live: ${title}` }).click();
  await expect(fan).toHaveURL(url);
  await expectPlaying(fan);
  await expect(fan.getByRole('button', { name: `Following ${caster.username}, 1 follower` })).toBeVisible();

  // A gift: the fan's gold goes to the broadcaster, and everyone sees it in the chat.
  await fan.getByRole('button', { name: `Gift 10 gold to ${caster.username}` }).click();
  await expect(fan.getByText('You sent 10 gold. 0 gold left.')).toBeVisible();
  await expect(caster.getByTestId('live-chat').getByTestId('live-gift')).toHaveText(/sent 10 gold/);
  await expect(fan.getByTestId('live-chat').getByTestId('live-gift')).toHaveText(/sent 10 gold/);
  // Nothing left to give: the shop says so.
  await fan.getByRole('button', { name: `Gift 10 gold to ${caster.username}` }).click();
  await expect(fan.getByRole('alert').filter({ hasText: 'You do not have enough gold' })).toBeVisible();

  await caster.getByRole('button', { name: 'End stream' }).click();
  await expect(fan.getByTestId('stream-ended')).toHaveText('This stream has ended');
});
