import { expect, test, openLogin } from './fixtures';
import { befriend, messageItem, newPage, send, signUp, uniqueName } from './people';
import { Axe } from './axe';

test.use({ serviceWorkers: 'block' });

test('a friend writes while the other is signed out; signing in, they see the unread count and the message', async ({ browser }) => {
  test.setTimeout(120_000);
  const [a, b] = await Promise.all([newPage(browser), newPage(browser, { width: 390, height: 844 })]);
  const ana = await signUp(a, uniqueName('ana'));
  const bo = await signUp(b, uniqueName('bo'));
  await befriend(a, ana.token, b, bo.token, bo.username);

  // Bo signs out.
  await b.goto('/messages');
  await b.request.post('/api/auth/logout');
  await b.context().clearCookies();

  await a.goto(`/messages/${bo.username}`);
  await expect(a.getByRole('heading', { name: bo.username, level: 1 })).toBeVisible();
  await send(a, 'Are you coming tonight?');
  await expect(messageItem(a, 'Are you coming tonight?')).toBeVisible();

  // Bo signs in on the phone and finds the message waiting.
  await openLogin(b);
  await b.getByLabel('Username').fill(bo.username);
  await b.getByLabel('Password').fill('a good long password');
  await b.getByRole('button', { name: 'Login' }).click();
  // Signed in, Bo lands where they were going (or the dashboard).
  await expect(b).not.toHaveURL(/\/login/);
  await b.goto('/messages');
  const row = b.getByRole('link', { name: new RegExp(ana.username) });
  await expect(row.getByLabel('1 unread')).toBeVisible();
  await expect(row).toContainText('Are you coming tonight?');
  const axeList = await new Axe({ page: b }).analyze();
  expect(axeList.violations, JSON.stringify(axeList.violations, null, 2)).toEqual([]);
  await row.click();
  await expect(b.getByText('New messages')).toBeVisible();
  await expect(messageItem(b, 'Are you coming tonight?')).toBeVisible();

  // Read: Ana sees it; typing and a reply go both ways.
  await expect(messageItem(a, 'Are you coming tonight?').getByText('Seen')).toBeVisible();
  await b.getByRole('textbox', { name: 'Message' }).fill('Yes');
  await expect(a.getByText(`${bo.username} is typing…`)).toBeVisible();
  await b.getByRole('textbox', { name: 'Message' }).press('Enter');
  await expect(messageItem(a, 'Yes')).toBeVisible();
  const axeChat = await new Axe({ page: b }).analyze();
  expect(axeChat.violations, JSON.stringify(axeChat.violations, null, 2)).toEqual([]);
});
