import type { NotificationPage } from '@parley/contract/notifications';
import { expect, test, type Page } from './fixtures';
import { befriend, newPage, send, signUp, uniqueName } from './people';
import { Axe } from './axe';

test.use({ serviceWorkers: 'block' });

// The room and a thread open beside it are two conversations: each its own log.
const roomLog = (p: Page) => p.getByRole('log', { name: /^Conversation in/ });
const threadLog = (p: Page) => p.getByRole('log', { name: /^Thread in/ });
const inRoom = (p: Page, text: string) => roomLog(p).getByRole('listitem').filter({ hasText: text });
const inThread = (p: Page, text: string) => threadLog(p).getByRole('listitem').filter({ hasText: text });

async function axeClean(p: Page) {
  const r = await new Axe({ page: p }).analyze();
  expect(r.violations, JSON.stringify(r.violations, null, 2)).toEqual([]);
}

test('a thread from a room message: over the room on a phone, beside it on a desktop; its follower is notified and sees the unread count', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const [o, b] = await Promise.all([newPage(browser, { width: 1280, height: 800 }), newPage(browser, { width: 390, height: 844 })]);
  const owner = await signUp(o, uniqueName('own'));
  const bo = await signUp(b, uniqueName('bo'));
  const auth = (who: { token: string }) => ({ authorization: `Bearer ${who.token}` });
  const created = await o.request.post('/api/groups', { data: { name: 'Film club', category: 'Movies' }, headers: auth(owner) });
  expect(created.status(), await created.text()).toBe(201);
  const { roomId } = (await created.json()) as { roomId: string };
  expect((await b.request.post(`/api/groups/${roomId}/join`, { data: {}, headers: auth(bo) })).status()).toBe(200);

  await o.goto(`/groupchat/${roomId}`);
  await send(o, 'Who is up for a movie night?');
  await expect(inRoom(o, 'Who is up for a movie night?')).toBeVisible();

  // Bo, on a phone, replies in a thread: it opens over the room, with its own composer.
  await b.goto(`/groupchat/${roomId}`);
  await inRoom(b, 'Who is up for a movie night?')
    .getByRole('button', { name: /Actions for/ })
    .click();
  await b.getByRole('button', { name: 'Reply in thread' }).click();
  const panel = b.getByTestId('thread-panel');
  await expect(panel.getByRole('heading', { name: 'Thread' })).toBeFocused();
  const phoneBox = await panel.boundingBox();
  expect(phoneBox!.width).toBeGreaterThan(380);
  await expect(panel.getByRole('region', { name: 'Thread messages' })).toBeVisible();
  await expect(panel.getByText('No replies yet.')).toBeVisible();
  await expect(panel.getByRole('button', { name: 'Follow thread' })).toHaveAttribute('aria-pressed', 'false');
  const reply = panel.getByRole('textbox', { name: 'Reply in thread' });
  await reply.fill('I am in! Something French?');
  await reply.press('Enter');
  await expect(inThread(b, 'I am in! Something French?')).toBeVisible();
  // Posting follows the thread.
  await expect(panel.getByRole('button', { name: 'Follow thread' })).toHaveAttribute('aria-pressed', 'true');
  await axeClean(b);

  // The owner (the root's author, so a follower) sees the count, when the last reply came and that it is unread; the room itself has no reply in it.
  const summary = inRoom(o, 'Who is up for a movie night?').getByRole('button', { name: /1 reply/ });
  await expect(summary).toBeVisible();
  await expect(summary).toContainText('1 new');
  await expect(summary).toContainText('Last reply');
  await expect(roomLog(o).getByText('I am in! Something French?')).toHaveCount(0);
  // …and is notified, the notification leading to the thread.
  await expect
    .poll(async () => {
      const res = await o.request.get('/api/notifications', { headers: auth(owner) });
      return ((await res.json()) as NotificationPage).notificationList.filter((n) => n.kind === 'threadReply').map((n) => n.link);
    })
    .toEqual([`/groupchat/${roomId}?thread=1`]);

  // On a desktop the thread opens beside the room, which stays in view; reading it clears the count.
  await summary.click();
  const side = o.getByTestId('thread-panel');
  await expect(inThread(o, 'I am in! Something French?')).toBeVisible();
  await expect(roomLog(o)).toBeVisible();
  const [roomBox, sideBox] = await Promise.all([roomLog(o).boundingBox(), side.boundingBox()]);
  expect(sideBox!.x).toBeGreaterThanOrEqual(roomBox!.x + roomBox!.width - 1);
  await expect(summary).not.toContainText('new');
  await side.getByRole('textbox', { name: 'Reply in thread' }).fill('Amélie on Friday, then');
  await side.getByRole('textbox', { name: 'Reply in thread' }).press('Enter');
  await expect(inThread(b, 'Amélie on Friday, then')).toBeVisible();
  await axeClean(o);

  // Bo edits a reply in the thread as anywhere else; both see it.
  await inThread(b, 'I am in! Something French?')
    .getByRole('button', { name: /Actions for/ })
    .click();
  await b.getByRole('button', { name: 'Edit' }).click();
  await b.getByRole('textbox', { name: 'Edit message' }).fill('I am in! Something French, please');
  await b.getByRole('button', { name: 'Save' }).click();
  await expect(inThread(o, 'I am in! Something French, please')).toBeVisible();

  // Closing the thread gives the phone its room back, the root showing both replies.
  await b.getByRole('button', { name: 'Close thread' }).click();
  await expect(b.getByTestId('thread-panel')).toHaveCount(0);
  await expect(inRoom(b, 'Who is up for a movie night?').getByRole('button', { name: /2 replies/ })).toBeVisible();

  // The notification's link opens the thread with the room.
  await b.goto(`/groupchat/${roomId}?thread=1`);
  await expect(inThread(b, 'Amélie on Friday, then')).toBeVisible();
});

test('hiding read receipts in Settings: the friend no longer sees when it was read, nor does the one who hid them', async ({ browser }) => {
  test.setTimeout(120_000);
  const [a, b] = await Promise.all([newPage(browser), newPage(browser, { width: 390, height: 844 })]);
  const ana = await signUp(a, uniqueName('ana'));
  const bo = await signUp(b, uniqueName('bo'));
  await befriend(a, ana.token, b, bo.token, bo.username);
  const item = (p: Page, text: string) => p.getByRole('log').getByRole('listitem').filter({ hasText: text });

  await a.goto(`/messages/${bo.username}`);
  await b.goto(`/messages/${ana.username}`);
  await send(a, 'Coming tonight?');
  await expect(item(b, 'Coming tonight?')).toBeVisible();
  await expect(item(a, 'Coming tonight?').getByText('Seen', { exact: true })).toBeVisible();
  await send(b, 'Yes, count me in');
  await expect(item(b, 'Yes, count me in').getByText('Seen', { exact: true })).toBeVisible();

  // Bo hides read receipts on the Settings page.
  await b.goto('/settingboard');
  const hide = b.getByRole('checkbox', { name: 'Hide my read receipts' });
  // A click, then the state: the switch follows the tap from the store's optimistic patch, which
  // React may paint a frame later than check() reads it back (seen once on a busy CI machine).
  await hide.click();
  await expect(hide).toBeChecked();
  await axeClean(b);
  await b.reload();
  await expect(b.getByRole('checkbox', { name: 'Hide my read receipts' })).toBeChecked();

  // Bo reads Ana's new message: Ana sees no "Seen"; Bo sees none on what Ana read either.
  await b.goto(`/messages/${ana.username}`);
  await send(a, 'And this one?');
  await expect(item(b, 'And this one?')).toBeVisible();
  await send(b, 'Hidden now');
  await expect(item(a, 'Hidden now')).toBeVisible();
  await a.waitForTimeout(1500);
  await expect(item(a, 'And this one?').getByText('Seen', { exact: true })).toHaveCount(0);
  await expect(item(b, 'Hidden now').getByText('Seen', { exact: true })).toHaveCount(0);
  await a.reload();
  await expect(item(a, 'And this one?')).toBeVisible();
  await expect(a.getByRole('log').getByText('Seen', { exact: true })).toHaveCount(0);
});
