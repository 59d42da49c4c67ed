import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from './fixtures';
import { messageItem, newPage, send, signUp, uniqueName } from './people';

test.use({ serviceWorkers: 'block' });

/** Two people become friends the way users do: a request and its acceptance (the people area's API). */
async function befriend(a: Page, aToken: string, b: Page, bToken: string, bName: string) {
  const sent = await a.request.post('/api/friends/requests', { data: { username: bName }, headers: { authorization: `Bearer ${aToken}` } });
  expect(sent.status(), await sent.text()).toBe(201);
  const incoming = (await (await b.request.get('/api/friends/requests', { headers: { authorization: `Bearer ${bToken}` } })).json()) as {
    incoming: Array<{ requestId: string }>;
  };
  const answered = await b.request.post(`/api/friends/requests/${incoming.incoming[0]!.requestId}/answer`, {
    data: { accept: true },
    headers: { authorization: `Bearer ${bToken}` },
  });
  expect(answered.status()).toBe(204);
}

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
  await b.goto('/login');
  await b.getByLabel('Username').fill(bo.username);
  await b.getByLabel('Password').fill('a good long password');
  await b.getByRole('button', { name: 'Login' }).click();
  // Signed in, Bo lands where they were going (or the dashboard).
  await expect(b).not.toHaveURL(/\/login/);
  await b.goto('/messages');
  const row = b.getByRole('link', { name: new RegExp(ana.username) });
  await expect(row.getByLabel('1 unread')).toBeVisible();
  await expect(row).toContainText('Are you coming tonight?');
  const axeList = await new AxeBuilder({ page: b }).analyze();
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
  const axeChat = await new AxeBuilder({ page: b }).analyze();
  expect(axeChat.violations, JSON.stringify(axeChat.violations, null, 2)).toEqual([]);
});
