import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { notificationEvents } from '@parley/contract/notifications';
import type { PostAnswer } from '@parley/contract/rooms';
import { befriend, messageItem, newPage, send, signUp, socketOf, uniqueName } from './people';
import { Axe } from './axe';

test.use({ serviceWorkers: 'block' });

/** Axe finds nothing in the light theme and in the dark one. */
async function axeBothThemes(page: Page, include?: string) {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    const builder = new Axe({ page });
    const axe = await (include ? builder.include(include) : builder).analyze();
    expect(axe.violations, `${colorScheme}: ${JSON.stringify(axe.violations, null, 2)}`).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/** The pages a page has told the server it shows (`notificationEvents.focus`), as its socket sent them. */
function focusReports(page: Page): string[] {
  const paths: string[] = [];
  page.on('websocket', (ws) =>
    ws.on('framesent', ({ payload }) => {
      // A socket.io event is `42` and its JSON array: [name, payload].
      if (typeof payload !== 'string' || !payload.startsWith('42[')) return;
      const [name, body] = JSON.parse(payload.slice(2)) as [unknown, { path?: unknown } | undefined];
      if (name === notificationEvents.focus && typeof body?.path === 'string') paths.push(body.path);
    }),
  );
  return paths;
}

test('a direct message raises a toast on another page; Open goes to the conversation, reading it clears the bell', async ({ browser }) => {
  test.setTimeout(120_000);
  const [a, b] = await Promise.all([newPage(browser), newPage(browser)]);
  const shown = focusReports(b);
  const ana = await signUp(a, uniqueName('ana'));
  const bo = await signUp(b, uniqueName('bo'));
  await befriend(a, ana.token, b, bo.token, bo.username);
  // The friend request is not what this is about.
  await b.request.post('/api/notifications/read-all', { headers: { authorization: `Bearer ${bo.token}` } });

  await b.goto('/profile');
  await expect(b.getByRole('heading', { level: 1, name: 'Your profile' })).toBeVisible();
  await a.goto(`/messages/${bo.username}`);
  await send(a, 'first hello');

  // On their profile, Bo is told at once: a toast and the bell.
  const toasts = b.getByRole('region', { name: /F8/ });
  await expect(toasts.getByText(`${ana.username}: first hello`)).toBeVisible();
  await expect(toasts.getByText('New message')).toBeVisible();
  await expect(b.getByTestId('unread-count')).toHaveText('1');
  // F8 reaches the toast (and holds it open while it has focus).
  await b.keyboard.press('F8');
  await expect(toasts.getByRole('list')).toBeFocused();
  await axeBothThemes(b);

  // Open goes to the conversation; reading it clears the bell.
  await toasts.getByRole('button', { name: 'Open' }).click();
  await expect(b).toHaveURL(new RegExp(`/messages/${ana.username}$`));
  await expect(messageItem(b, 'first hello')).toBeVisible();
  await expect(b.getByTestId('unread-count')).toHaveCount(0);

  // The conversation on screen shows the message itself: no toast, no count.
  await expect.poll(() => shown.at(-1)).toBe(`/messages/${ana.username}`);
  await send(a, 'while you read');
  await expect(messageItem(b, 'while you read')).toBeVisible();
  await b.waitForTimeout(500);
  await expect(toasts.getByText(`${ana.username}: while you read`)).toHaveCount(0);
  await expect(b.getByTestId('unread-count')).toHaveCount(0);

  // Elsewhere again, another message; opening the conversation some other way also clears it.
  await b.getByRole('banner').getByRole('link', { name: 'Parley' }).click();
  await expect(b).toHaveURL(/\/dashboard$/);
  await expect(b.getByRole('heading', { level: 1 })).toBeVisible();
  // The page says it left the conversation once it has painted the next one: until then a message
  // there counts as read on screen.
  await expect.poll(() => shown.at(-1)).toBe('/dashboard');
  await send(a, 'second');
  await expect(toasts.getByText(`${ana.username}: second`)).toBeVisible();
  await expect(b.getByTestId('unread-count')).toHaveText('1');
  await b.goto(`/messages/${ana.username}`);
  await expect(messageItem(b, 'second')).toBeVisible();
  await expect(b.getByTestId('unread-count')).toHaveCount(0);
});

test('a ban asks its reason in a dialog (Esc cancels); the reason reaches the person banned', async ({ browser }) => {
  test.setTimeout(120_000);
  const [o, c] = await Promise.all([newPage(browser, { width: 390, height: 844 }), newPage(browser)]);
  const owner = await signUp(o, uniqueName('own'));
  const cy = await signUp(c, uniqueName('cy'));
  const as = (who: { token: string }) => ({ headers: { authorization: `Bearer ${who.token}` } });
  const created = await o.request.post('/api/groups', { ...as(owner), data: { name: 'Dialog room', category: 'Tech' } });
  expect(created.status()).toBe(201);
  const { roomId } = (await created.json()) as { roomId: string };
  expect((await c.request.post(`/api/groups/${roomId}/join`, { ...as(cy), data: {} })).status()).toBe(200);

  await o.goto(`/groupchat/${roomId}`);
  await expect(o.getByRole('heading', { name: 'Dialog room', level: 1 })).toBeVisible();
  await c.goto(`/groupchat/${roomId}`);
  const sc = await socketOf(cy);
  const posted = (await sc.timeout(10_000).emitWithAck('room:post', { roomId, clientId: 'spam1', text: 'buy my stuff' })) as PostAnswer;
  expect(posted.ok).toBe(true);
  sc.disconnect();

  const ban = async () => {
    await messageItem(o, 'buy my stuff')
      .getByRole('button', { name: /Actions for/ })
      .click();
    await o.getByRole('button', { name: `Ban ${cy.username}` }).click();
    return o.getByRole('dialog', { name: `Ban ${cy.username} from this room?` });
  };

  // Esc cancels: nothing happens.
  let dialog = await ban();
  await expect(dialog.getByRole('textbox', { name: 'Reason (optional)' })).toBeFocused();
  await axeBothThemes(o, '[role="dialog"]');
  await o.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(c.getByRole('textbox', { name: 'Message' })).toBeEnabled();

  // With a reason, the ban goes and Cy reads why.
  dialog = await ban();
  await dialog.getByRole('textbox', { name: 'Reason (optional)' }).fill('selling things');
  await dialog.getByRole('button', { name: 'Ban', exact: true }).click();
  await expect(dialog).toHaveCount(0);
  await expect(c.getByText(new RegExp(`selling things`))).toBeVisible();
});

test("a friend request accepted elsewhere updates the sender's page at once, and the request itself raised a toast", async ({
  browser,
}) => {
  test.setTimeout(150_000);
  const [a, b] = await Promise.all([newPage(browser), newPage(browser)]);
  const ana = await signUp(a, uniqueName('ana'));
  const bo = await signUp(b, uniqueName('bo'));
  const as = (who: { token: string }) => ({ headers: { authorization: `Bearer ${who.token}` } });

  await b.goto('/settingboard');
  await a.goto(`/users/${bo.username}`);
  await a.getByRole('button', { name: 'Add friend' }).click();
  await expect(a.getByRole('button', { name: 'Cancel request' })).toBeVisible();

  // Bo, on another page, is told by a toast; he accepts from his own list (another page of his).
  const toasts = b.getByRole('region', { name: /F8/ });
  await expect(toasts.getByText(`${ana.username} wants to be your friend`)).toBeVisible();
  const incoming = (await (await b.request.get('/api/friends/requests', as(bo))).json()) as { incoming: Array<{ requestId: string }> };
  const answered = await b.request.post(`/api/friends/requests/${incoming.incoming[0]!.requestId}/answer`, {
    ...as(bo),
    data: { accept: true },
  });
  expect(answered.status()).toBeLessThan(300);

  // Ana's page follows without a reload: no pending request any more, a friend to message.
  await expect(a.getByRole('link', { name: 'Message', exact: true })).toHaveAttribute('href', `/messages/${bo.username}`);
  await expect(a.getByRole('button', { name: 'Cancel request' })).toHaveCount(0);
});

test('the account menu is a menu: arrow keys move through it, Esc gives focus back; axe clean in both themes', async ({ browser }) => {
  const p = await newPage(browser, { width: 390, height: 844 });
  await signUp(p, uniqueName('menu'));
  await p.goto('/dashboard');
  const trigger = p.getByRole('button', { name: 'Your account' });
  await trigger.focus();
  await p.keyboard.press('Enter');
  const menu = p.getByRole('menu', { name: 'Your account' });
  await expect(menu).toBeVisible();
  // Arrow keys move focus from item to item.
  await p.keyboard.press('ArrowDown');
  const focused = menu.locator('[role="menuitem"]:focus');
  await expect(focused).toHaveCount(1);
  const first = await focused.textContent();
  await p.keyboard.press('ArrowDown');
  await expect(focused).toHaveCount(1);
  await expect(focused).not.toHaveText(first!);
  await axeBothThemes(p);
  await p.keyboard.press('Escape');
  await expect(menu).toHaveCount(0);
  await expect(trigger).toBeFocused();
});
