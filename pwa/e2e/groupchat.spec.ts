import { expect, test } from './fixtures';
import type { PostAnswer } from '@parley/contract/rooms';
import { conversation, messageItem, newPage, send, signUp, socketOf, uniqueName } from './people';
import { Axe } from './axe';

test.use({ serviceWorkers: 'block' });

test('three people in a room on phone and desktop: history by scrolling, messages, typing, a mention, a reaction; the owner mutes and kicks; back later at the first unread; leaving', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const [o, b, c] = await Promise.all([newPage(browser), newPage(browser, { width: 390, height: 844 }), newPage(browser)]);
  const owner = await signUp(o, uniqueName('own'));
  const bo = await signUp(b, uniqueName('bo'));
  const cy = await signUp(c, uniqueName('cy'));

  // The owner finds the list of rooms and creates one.
  await o.goto('/groupchat');
  await expect(o.getByRole('heading', { name: 'Group chat', level: 1 })).toBeVisible();
  await expect(o.getByRole('link', { name: /Music Lounge/ })).toBeVisible();
  await o.getByRole('button', { name: 'Create a room' }).click();
  const axeList = await new Axe({ page: o }).analyze();
  expect(axeList.violations, JSON.stringify(axeList.violations, null, 2)).toEqual([]);
  await o.getByLabel('Room name').fill('Night owls');
  await o.getByLabel('Category', { exact: true }).selectOption('Music');
  await o.getByLabel('Description').fill('Late music talk');
  await o.getByRole('button', { name: 'Create room' }).click();
  await expect(o).toHaveURL(/\/groupchat\/[0-9a-f-]{36}$/);
  const roomId = o.url().split('/').pop()!;
  await expect(o.getByRole('heading', { name: 'Night owls', level: 1 })).toBeVisible();

  // Bo joins from the phone; the owner and Bo fill the room with history before Cy comes.
  await b.goto(`/groupchat/${roomId}`);
  await b.getByRole('button', { name: 'Join room' }).click();
  await expect(b.getByRole('textbox', { name: 'Message' })).toBeEnabled();
  const [so, sb] = await Promise.all([socketOf(owner), socketOf(bo)]);
  const fill = async (s: typeof so, who: string, n: number) => {
    for (let i = 1; i <= n;) {
      const a = (await s
        .timeout(10_000)
        .emitWithAck('room:post', { roomId, clientId: `${who}${i}`, text: `${who} history ${i}` })) as PostAnswer;
      if (a.ok) i++;
      else await new Promise((r) => setTimeout(r, 1000));
    }
  };
  await Promise.all([fill(so, 'owner', 28), fill(sb, 'bo', 28)]);
  so.disconnect();
  sb.disconnect();

  // Cy finds the room by searching, joins, reads the latest and scrolls back to the beginning.
  await c.setViewportSize({ width: 390, height: 844 });
  await c.goto('/groupchat');
  await c.getByLabel('Search rooms').fill('night');
  const axeListPhone = await new Axe({ page: c }).analyze();
  expect(axeListPhone.violations, JSON.stringify(axeListPhone.violations, null, 2)).toEqual([]);
  await c.getByRole('link', { name: /Night owls/ }).click();
  await c.setViewportSize({ width: 1280, height: 720 });
  await c.getByRole('button', { name: 'Join room' }).click();
  await expect(messageItem(c, 'bo history 28')).toBeVisible();
  await expect(conversation(c).getByText('owner history 1', { exact: true })).toHaveCount(0);
  // Scrolling up to the top brings the older messages.
  await c.getByRole('region', { name: 'Messages' }).evaluate((el) => el.scrollTo({ top: 0 }));
  await expect(conversation(c).getByText('owner history 1', { exact: true })).toBeVisible();
  await expect(c.getByText('This is the beginning of the conversation.')).toBeVisible();

  // Everyone sees everyone's messages, each once.
  await o.reload();
  await send(o, 'Welcome, night owls');
  for (const p of [b, c]) await expect(messageItem(p, 'Welcome, night owls')).toHaveCount(1);
  await expect(o.getByRole('list', { name: 'People in the room' }).getByText(cy.username, { exact: true })).toBeVisible();

  // Typing shows to the others.
  await c.getByRole('textbox', { name: 'Message' }).fill('thinking');
  await expect(b.getByText(`${cy.username} is typing…`)).toBeVisible();
  await c.getByRole('textbox', { name: 'Message' }).fill('');

  // A mention through the suggestions reaches the owner, marked.
  const box = b.getByRole('textbox', { name: 'Message' });
  await box.fill(`@${owner.username.slice(0, 4)}`);
  await b.getByRole('button', { name: `@${owner.username}` }).click();
  await box.pressSequentially('what are you playing?');
  await box.press('Enter');
  await expect(messageItem(o, 'what are you playing?').getByText('mentioned you')).toBeVisible();

  // A reaction shows to everyone.
  await messageItem(c, 'Welcome, night owls')
    .getByRole('button', { name: /Actions for/ })
    .click();
  await c.getByRole('button', { name: 'React 👍' }).click();
  await expect(messageItem(o, 'Welcome, night owls').getByRole('button', { name: /👍 1/ })).toBeVisible();

  const axeRoom = await new Axe({ page: o }).analyze();
  expect(axeRoom.violations, JSON.stringify(axeRoom.violations, null, 2)).toEqual([]);
  const axePhone = await new Axe({ page: b }).analyze();
  expect(axePhone.violations, JSON.stringify(axePhone.violations, null, 2)).toEqual([]);

  // The owner mutes Bo: Bo is told at once, before typing, for how long; the message box is off.
  await messageItem(o, 'what are you playing?')
    .getByRole('button', { name: /Actions for/ })
    .click();
  await o.getByRole('button', { name: `Mute ${bo.username} 1 hour` }).click();
  await expect
    .poll(async () => {
      const res = await o.request.get(`/api/groups/${roomId}/moderation`, { headers: { authorization: `Bearer ${owner.token}` } });
      return ((await res.json()) as { entries: Array<{ action: string; detail: string }> }).entries.map((e) => `${e.action} ${e.detail}`);
    })
    .toContain('mute 60 min');
  await expect(b.getByText(/Muted for (59|60) min/)).toBeVisible();
  await expect(b.getByRole('textbox', { name: 'Message' })).toBeDisabled();

  // The owner kicks Cy, who is told why.
  await send(c, 'spam spam spam');
  await expect(messageItem(o, 'spam spam spam')).toBeVisible();
  await messageItem(o, 'spam spam spam')
    .getByRole('button', { name: /Actions for/ })
    .click();
  await o.getByRole('button', { name: `Kick ${cy.username}` }).click();
  const why = o.getByRole('dialog', { name: `Remove ${cy.username} from this room?` });
  await why.getByRole('textbox', { name: 'Reason (optional)' }).fill('no spamming');
  await why.getByRole('button', { name: 'Remove' }).click();
  await expect(c.getByRole('heading', { name: 'You were removed from this room' })).toBeVisible();
  await expect(c.getByText(`${owner.username} removed you from this room: no spamming`)).toBeVisible();
  const axeKicked = await new Axe({ page: c }).analyze();
  expect(axeKicked.violations, JSON.stringify(axeKicked.violations, null, 2)).toEqual([]);

  // The record of what the owner did.
  await o.getByText('Moderation record').click();
  await expect(o.getByText(`${owner.username} removed ${cy.username} (no spamming)`)).toBeVisible();
  await expect(conversation(o)).toBeVisible();

  // Bo goes away; the room talks on; back later, Bo opens at the first unread message, marked.
  await expect(messageItem(b, 'spam spam spam')).toBeVisible();
  await b.goto('/groupchat');
  await expect(b.getByRole('heading', { name: 'Group chat', level: 1 })).toBeVisible();
  for (const text of ['while Bo was away 1', 'while Bo was away 2', 'while Bo was away 3']) await send(o, text);
  await expect(messageItem(o, 'while Bo was away 3')).toBeVisible();
  await b.reload();
  await expect(b.getByRole('link', { name: /Night owls/ })).toContainText('3 unread');
  await b.getByRole('link', { name: /Night owls/ }).click();
  const marker = conversation(b).getByRole('listitem', { name: 'New messages below' });
  await expect(marker).toBeVisible();
  await expect(marker.locator('xpath=following-sibling::li[1]')).toContainText('while Bo was away 1');
  await expect(marker).toBeInViewport();
  // All three fit on screen: read at once, so no pill offers to jump to them, even scrolled up.
  await expect(b.getByRole('button', { name: 'Jump to first unread' })).toHaveCount(0);
  await b.getByRole('region', { name: 'Messages' }).evaluate((el) => el.scrollTo({ top: 0 }));
  await expect(marker).not.toBeInViewport();
  await expect(b.getByRole('button', { name: 'Jump to first unread' })).toHaveCount(0);

  // Bo leaves the room for good, and is told so.
  await b.getByRole('button', { name: 'Leave' }).click();
  await expect(b.getByRole('heading', { name: 'You left this room' })).toBeVisible();

  // Leaving and joining again does not lift the mute: still told, still unable to write.
  await b.goto(`/groupchat/${roomId}`);
  await b.getByRole('button', { name: 'Join room' }).click();
  await expect(b.getByText(/Muted for (5\d|60) min/)).toBeVisible();
  await expect(b.getByRole('textbox', { name: 'Message' })).toBeDisabled();
});

test('an unknown, a closed or a banned-from room is a clear page, not a blank screen', async ({ browser }) => {
  const p = await newPage(browser, { width: 390, height: 844 });
  const lost = await signUp(p, uniqueName('lost'));
  await p.goto('/groupchat/00000000-0000-4000-8000-000000000000');
  await expect(p.getByRole('heading', { name: 'Room not found' })).toBeVisible();
  await expect(p.getByRole('link', { name: 'Find another room' })).toBeVisible();

  // Someone else's rooms: one bans this person, the other is closed.
  const o = await newPage(browser);
  const owner = await signUp(o, uniqueName('own'));
  const as = (who: { token: string }) => ({ headers: { authorization: `Bearer ${who.token}` } });
  const create = async (name: string) => {
    const res = await o.request.post('/api/groups', { ...as(owner), data: { name, category: 'Tech' } });
    expect(res.status()).toBe(201);
    return ((await res.json()) as { roomId: string }).roomId;
  };
  const [strict, gone] = [await create('Strict room'), await create('Gone room')];
  expect((await p.request.post(`/api/groups/${strict}/join`, { ...as(lost), data: {} })).status()).toBe(200);
  const ban = { action: 'ban', userId: lost.userId, reason: 'trolling' };
  expect((await o.request.post(`/api/groups/${strict}/moderation`, { ...as(owner), data: ban })).status()).toBe(200);
  expect((await o.request.post(`/api/groups/${gone}/moderation`, { ...as(owner), data: { action: 'close' } })).status()).toBe(200);

  await p.goto(`/groupchat/${strict}`);
  await expect(p.getByRole('heading', { name: 'You are banned from this room' })).toBeVisible();
  await expect(p.getByRole('link', { name: 'Find another room' })).toBeVisible();
  await p.goto(`/groupchat/${gone}`);
  await expect(p.getByRole('heading', { name: 'This room is closed' })).toBeVisible();
  const axe = await new Axe({ page: p }).analyze();
  expect(axe.violations, JSON.stringify(axe.violations, null, 2)).toEqual([]);
});
