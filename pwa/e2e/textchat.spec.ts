import { expect, test, type Browser, type Page } from './fixtures';
import { baseURL } from '../playwright.config';
import { dropSocketOnMatched } from './network';
import { postSignup } from './signup';
import { Axe } from './axe';

// Service workers would serve a cached shell; these tests want the build under test.
test.use({ serviceWorkers: 'block' });

const PASSWORD = 'a good long password';
const uniqueName = (prefix: string) => `${prefix}${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`.slice(0, 20);
type Person = { username: string; age: number; gender: 'male' | 'female' | 'other' };

async function newPage(browser: Browser, viewport?: { width: number; height: number }): Promise<Page> {
  const context = await browser.newContext({ baseURL, serviceWorkers: 'block', ...(viewport ? { viewport } : {}) });
  const page = await context.newPage();
  page.on('pageerror', (err) => console.error(`[${page.url()}] page error:`, err.message));
  return page;
}

/** A new user through the sign-up screen, as a visitor would. */
async function signUpThroughScreen(page: Page, p: Person) {
  await page.goto('/createaccount');
  await page.getByLabel('Username', { exact: true }).fill(p.username);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Age', { exact: true }).fill(String(p.age));
  await page.getByLabel('Gender', { exact: true }).selectOption(p.gender);
  await page.getByRole('checkbox', { name: /I am 18 or older/ }).check();
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page).not.toHaveURL(/\/createaccount/);
}

/** A new user through the API; the refresh cookie lands in the page's context, so a load signs in. */
async function signUpThroughApi(page: Page, p: Person) {
  const res = await postSignup(page.request, {
    data: { username: p.username, password: PASSWORD, age: p.age, gender: p.gender },
  });
  expect(res.status(), await res.text()).toBe(201);
}

async function openTextChat(page: Page) {
  await page.goto('/textchat');
  await expect(page.getByRole('heading', { name: 'Text chat', level: 1 })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Start', exact: true })).toBeEnabled();
}

async function setFilters(page: Page, f: { gender: 'All' | 'male' | 'female' | 'other'; topics?: string[] }) {
  await page.getByLabel('Show me').selectOption(f.gender);
  for (const t of f.topics ?? []) {
    await page.getByLabel('Topics', { exact: true }).fill(t);
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await expect(page.getByRole('list', { name: 'Your topics' }).getByText(t)).toBeVisible();
  }
}

const conversation = (page: Page) => page.getByRole('log');
const messageItem = (page: Page, text: string) => conversation(page).getByRole('listitem').filter({ hasText: text });

async function send(page: Page, text: string) {
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill(text);
  await box.press('Enter');
}

test('two strangers meet, talk both ways, one skips; an incompatible third user is never matched', async ({ browser }) => {
  // A long walk through one chat's life, with four accessibility passes: over 3 min beside another worker.
  test.setTimeout(360_000);
  const ada: Person = { username: uniqueName('ada'), age: 25, gender: 'male' };
  const bob: Person = { username: uniqueName('bob'), age: 31, gender: 'male' };
  const cleo: Person = { username: uniqueName('cleo'), age: 40, gender: 'female' };
  const [a, b, c] = await Promise.all([newPage(browser), newPage(browser, { width: 390, height: 844 }), newPage(browser)]);

  await signUpThroughScreen(a, ada);
  await signUpThroughScreen(b, bob);
  await signUpThroughApi(c, cleo);

  // Cleo wants to meet anyone, but Ada and Bob only want to meet men: Cleo fits neither of them.
  await openTextChat(c);
  await setFilters(c, { gender: 'All' });
  await c.reload();
  await expect(c.getByLabel('Show me')).toHaveValue('All');
  await c.getByRole('button', { name: 'Start', exact: true }).click();
  await expect(c.getByText('Searching...')).toBeVisible();

  await openTextChat(a);
  await setFilters(a, { gender: 'male', topics: ['chess', 'jazz'] });
  // Filters persist across a restart of the page.
  await a.reload();
  await expect(a.getByLabel('Show me')).toHaveValue('male');
  await expect(a.getByRole('list', { name: 'Your topics' }).getByRole('listitem')).toHaveText([/chess/, /jazz/]);
  // A keyboard user is told about Esc Esc (touch screens are not: see the phone tests).
  await expect(a.getByText('press Esc twice to skip')).toBeVisible();
  const axeIdle = await new Axe({ page: a }).analyze();
  expect(axeIdle.violations, JSON.stringify(axeIdle.violations, null, 2)).toEqual([]);

  await openTextChat(b);
  await setFilters(b, { gender: 'male', topics: ['chess'] });
  await expect(a.getByTestId('online-count')).toHaveText('3');

  await a.getByRole('button', { name: 'Start', exact: true }).click();
  await b.getByRole('button', { name: 'Start', exact: true }).click();

  // Matched: each sees the other's card with what they share.
  const aCard = a.getByRole('region', { name: 'Your chat partner' });
  const bCard = b.getByRole('region', { name: 'Your chat partner' });
  await expect(aCard.getByRole('heading', { name: bob.username })).toBeVisible();
  await expect(bCard.getByRole('heading', { name: ada.username })).toBeVisible();
  await expect(aCard).toContainText('31 · Male');
  await expect(aCard.getByRole('list', { name: 'Shared topics' })).toHaveText('chess');
  await expect(a.getByRole('textbox', { name: 'Message' })).toBeFocused();

  // Both ways, each delivered once the other's page showed it.
  await send(a, 'Hi Bob, fancy a game of chess?');
  await expect(messageItem(b, 'Hi Bob, fancy a game of chess?')).toBeVisible();
  await expect(messageItem(a, 'Hi Bob, fancy a game of chess?')).toContainText('Delivered');
  await b.getByRole('textbox', { name: 'Message' }).fill('Always!');
  await b.getByRole('textbox', { name: 'Message' }).press('Shift+Enter');
  await b.getByRole('textbox', { name: 'Message' }).pressSequentially('White or black?');
  await b.getByRole('textbox', { name: 'Message' }).press('Enter');
  await expect(messageItem(a, 'White or black?')).toContainText(/Always!\s+White or black\?/);
  await expect(messageItem(b, 'White or black?')).toContainText('Delivered');

  // The emoji picker inserts into the draft.
  await a.getByRole('button', { name: 'Emoji' }).click();
  await a.getByRole('dialog', { name: 'Emoji' }).getByRole('button', { name: 'thumbs up' }).click();
  await expect(a.getByRole('textbox', { name: 'Message' })).toHaveValue('👍');
  await a.getByRole('button', { name: 'Send' }).click();
  await expect(messageItem(b, '👍')).toBeVisible();
  await expect(messageItem(a, '👍')).toContainText('Delivered');

  // A burst beyond the message rate: what is refused says so and can be sent again with Retry,
  // and reaches Bob once.
  // Typed and sent from inside the page while its socket's frames are held back, then let go at
  // once: the server sees the burst whatever the speed of this machine's browser.
  await a.getByRole('textbox', { name: 'Message' }).evaluate(async (box: HTMLTextAreaElement) => {
    const setValue = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')!.set!;
    const realSend = WebSocket.prototype.send;
    const held: [WebSocket, Parameters<WebSocket['send']>[0]][] = [];
    WebSocket.prototype.send = function (this: WebSocket, data) {
      held.push([this, data]);
    };
    // React renders each change (in a microtask) before the next event.
    const rendered = async () => {
      for (let k = 0; k < 3; k++) await Promise.resolve();
    };
    try {
      for (let i = 1; i <= 26; i++) {
        setValue.call(box, `burst #${String(i).padStart(3, '0')}.`);
        box.dispatchEvent(new Event('input', { bubbles: true }));
        await rendered();
        box.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true }));
        await rendered();
      }
    } finally {
      WebSocket.prototype.send = realSend;
      for (const [socket, data] of held) realSend.call(socket, data);
    }
  });
  await expect(a.getByText('Message not sent').first()).toBeVisible();
  const refused = conversation(a).getByRole('listitem').filter({ hasText: 'Not sent: You are sending messages too fast' });
  await expect(refused.first()).toBeVisible();
  const retried = (await refused.first().locator('p').first().textContent())!;
  const axeRefused = await new Axe({ page: a }).analyze();
  expect(axeRefused.violations, JSON.stringify(axeRefused.violations, null, 2)).toEqual([]);
  await a.waitForTimeout(2500);
  await refused
    .first()
    .getByRole('button', { name: `Retry sending “${retried}”` })
    .click();
  await expect(messageItem(a, retried)).toContainText('Delivered');
  await expect(messageItem(b, retried)).toHaveCount(1);

  const axeChat = await new Axe({ page: b }).analyze();
  expect(axeChat.violations, JSON.stringify(axeChat.violations, null, 2)).toEqual([]);

  // Cleo has been searching all along and was matched with nobody.
  await expect(c.getByText('Searching...')).toBeVisible();
  await expect(c.getByRole('region', { name: 'Your chat partner' })).toHaveCount(0);

  // Bob skips (Esc twice); Ada sees the stranger leave and keeps the conversation to read.
  await b.keyboard.press('Escape');
  await expect(b.getByText('Press Esc again to skip to the next stranger.')).toBeVisible();
  await b.keyboard.press('Escape');
  await expect(a.getByText('Stranger has disconnected')).toBeVisible();
  await expect(messageItem(a, 'White or black?')).toBeVisible();
  await expect(a.getByRole('textbox', { name: 'Message' })).toBeDisabled();
  await expect(b.getByText('Searching...')).toBeVisible();

  // Bob, now searching again, is still not matched with Cleo.
  await b.waitForTimeout(3000);
  await expect(b.getByText('Searching...')).toBeVisible();
  await expect(c.getByText('Searching...')).toBeVisible();

  // Ada looks for someone new: nobody else fits, so after the recent-partner pause they meet again.
  await a.getByRole('button', { name: 'Find someone new' }).click();
  // Meanwhile she is told why it takes a moment: few are online, and whom she may meet again.
  await expect(a.getByTestId('few-online')).toContainText('Few people are online right now', { timeout: 9000 });
  await expect(a.getByRole('region', { name: 'Your chat partner' }).getByRole('heading', { name: bob.username })).toBeVisible({
    timeout: 20_000,
  });
  await expect(b.getByRole('region', { name: 'Your chat partner' }).getByRole('heading', { name: ada.username })).toBeVisible();
  await send(b, 'Hello again');
  await expect(messageItem(a, 'Hello again')).toBeVisible();

  // Reloading ends the chat for the partner at once (well before a ping timeout); the session survives it.
  await b.reload();
  await expect(a.getByText('Stranger has disconnected')).toBeVisible({ timeout: 5000 });
  await expect(b.getByRole('heading', { name: 'Text chat', level: 1 })).toBeVisible();
  await expect(b.getByRole('button', { name: 'Start', exact: true })).toBeEnabled();
  // Brand-new accounts have no standing yet (a few real chats): their topics are not suggested to others.
  await expect(b.getByRole('button', { name: 'Add topic jazz' })).toHaveCount(0);
  await expect(b.getByRole('button', { name: 'Add topic chess' })).toHaveCount(0);

  // Closing the tab takes Bob off the online list; Cleo can stop her fruitless search.
  await b.context().close();
  await expect(a.getByTestId('online-count')).toHaveText('2');
  await expect(c.getByText('Searching...')).toBeVisible();
  await c.getByRole('button', { name: 'Stop' }).click();
  await expect(c.getByRole('button', { name: 'Start', exact: true })).toBeVisible();

  await Promise.all([a.context().close(), c.context().close()]);
});

test('a match lost in a dropped connection reaches the page once it is back: nobody waits out the grace', async ({ browser }) => {
  test.setTimeout(120_000);
  const fay: Person = { username: uniqueName('fay'), age: 71, gender: 'other' };
  const gus: Person = { username: uniqueName('gus'), age: 74, gender: 'other' };
  const f = await newPage(browser);
  const g = await newPage(browser);
  await signUpThroughApi(f, fay);
  await signUpThroughApi(g, gus);
  // Fay's first connection dies just as the server tells her of her match: her page loses it and
  // reconnects, while the server's end of that connection stays open.
  const dropped = await dropSocketOnMatched(f);
  for (const p of [f, g]) {
    await openTextChat(p);
    await setFilters(p, { gender: 'other' });
    await p.getByLabel('Minimum age').fill('70');
  }
  await f.getByRole('button', { name: 'Start', exact: true }).click();
  await expect(f.getByText('Searching...')).toBeVisible();
  await g.getByRole('button', { name: 'Start', exact: true }).click();
  await expect(g.getByRole('region', { name: 'Your chat partner' }).getByRole('heading', { name: fay.username })).toBeVisible();
  // Back on a new connection, her page searches again and gets the room it missed; Gus keeps his chat.
  await expect(f.getByRole('region', { name: 'Your chat partner' }).getByRole('heading', { name: gus.username })).toBeVisible({
    timeout: 30_000,
  });
  expect(dropped()).toBe(true);
  await expect(g.getByText('Stranger lost their connection')).toBeHidden();
  await send(f, 'Sorry, I was in a lift');
  await expect(messageItem(g, 'Sorry, I was in a lift')).toBeVisible();
  await expect(messageItem(f, 'Sorry, I was in a lift')).toContainText('Delivered');
  await send(g, 'No worries');
  await expect(messageItem(f, 'No worries')).toBeVisible();
  await expect(g.getByText('Stranger has disconnected')).toHaveCount(0);
  await Promise.all([f.context().close(), g.context().close()]);
});

test('a network drop of a few seconds keeps the chat: both go on talking once it is back', async ({ browser }) => {
  test.setTimeout(150_000);
  const dan: Person = { username: uniqueName('dan'), age: 45, gender: 'other' };
  const eve: Person = { username: uniqueName('eve'), age: 52, gender: 'other' };
  // socket.io's client only reacts to the browser's "offline" event away from the host name
  // localhost, as it would for a phone losing its network: Dan's page uses the loopback address.
  const loopback = baseURL.replace('localhost', '127.0.0.1');
  const dContext = await browser.newContext({ baseURL: loopback, serviceWorkers: 'block' });
  const d = await dContext.newPage();
  const e = await newPage(browser);
  await signUpThroughApi(d, dan);
  await signUpThroughApi(e, eve);
  // Both want to meet someone of 40 or more, which only they are.
  for (const p of [d, e]) {
    await openTextChat(p);
    await setFilters(p, { gender: 'other' });
    await p.getByLabel('Minimum age').fill('40');
    await p.getByRole('button', { name: 'Start', exact: true }).click();
  }
  await expect(d.getByRole('region', { name: 'Your chat partner' }).getByRole('heading', { name: eve.username })).toBeVisible();
  await send(d, 'Before the tunnel');
  await expect(messageItem(e, 'Before the tunnel')).toBeVisible();

  await dContext.setOffline(true);
  const droppedAt = Date.now();
  // Seen in seconds, well before the server's ping would notice (10 s apart, 8 s to answer);
  // on a loaded machine the browser's closing and both pages' rendering can take several.
  await expect(d.getByText('Connection lost. Reconnecting…')).toBeVisible({ timeout: 10_000 });
  await expect(e.getByText('Stranger lost their connection')).toBeVisible({ timeout: 10_000 });
  // What Dan sends while offline waits in the conversation, to go once he is back.
  await send(d, 'Still there?');
  await expect(messageItem(d, 'Still there?')).toContainText('Not sent yet');
  await expect(d.getByRole('textbox', { name: 'Message' })).toHaveValue('');
  // Eve's message is kept for Dan meanwhile (sent, not yet delivered), and the page says it waits for him.
  await send(e, 'Hello?');
  await expect(messageItem(e, 'Hello?')).toContainText('Sent');
  await expect(e.getByText('What you send now goes when they are back.')).toBeVisible();
  // A drop of a few seconds, however long the checks above took: the chat is held 15 s from it.
  await d.waitForTimeout(Math.max(0, 5000 - (Date.now() - droppedAt)));
  // Eve goes on typing, slowly, while Dan comes back.
  const eveTyping = e.getByRole('textbox', { name: 'Message' }).pressSequentially('Are you back yet? I am still here', { delay: 400 });
  await dContext.setOffline(false);

  // Back within the grace: the same chat, nobody was told the stranger left.
  await expect(d.getByText('Connection lost. Reconnecting…')).toBeHidden({ timeout: 12_000 });
  // Her typing signal went nowhere while he was away: it is sent again once he is back.
  await expect(d.getByText(`${eve.username} is typing…`)).toBeVisible({ timeout: 30_000 });
  await eveTyping;
  await e.getByRole('textbox', { name: 'Message' }).fill('');
  await expect(e.getByText('Stranger lost their connection')).toBeHidden();
  await expect(d.getByText('You were disconnected')).toHaveCount(0);
  await expect(e.getByText('Stranger has disconnected')).toHaveCount(0);
  await expect(messageItem(d, 'Before the tunnel')).toBeVisible();
  // What Eve sent while Dan was away reaches him now, once.
  await expect(messageItem(d, 'Hello?')).toHaveCount(1);
  await expect(messageItem(e, 'Hello?')).toContainText('Delivered');
  await expect(messageItem(e, 'Still there?')).toHaveCount(1);
  await expect(messageItem(d, 'Still there?')).toContainText('Delivered');
  await send(d, 'Out of the tunnel');
  await expect(messageItem(e, 'Out of the tunnel')).toBeVisible();
  await expect(messageItem(d, 'Out of the tunnel')).toContainText('Delivered');
  await send(e, 'Welcome back');
  await expect(messageItem(d, 'Welcome back')).toBeVisible();
  await expect(messageItem(e, 'Welcome back')).toContainText('Delivered');

  // Offline for longer than the server holds a chat: it ends for both, and both carry on.
  await dContext.setOffline(true);
  // The waiting page is checked here, where however long the check takes cannot end the chat early.
  await expect(e.getByText('What you send now goes when they are back.')).toBeVisible({ timeout: 10_000 });
  const axe = await new Axe({ page: e }).analyze();
  expect(axe.violations, JSON.stringify(axe.violations, null, 2)).toEqual([]);
  await expect(e.getByText('Stranger has disconnected')).toBeVisible({ timeout: 25_000 });
  await dContext.setOffline(false);
  await expect(d.getByText('You were disconnected')).toBeVisible({ timeout: 45_000 });
  await expect(d.getByRole('button', { name: 'Start', exact: true })).toBeEnabled({ timeout: 45_000 });
  await e.getByRole('button', { name: 'Find someone new' }).click();
  await d.getByRole('button', { name: 'Start', exact: true }).click();
  await expect(d.getByRole('region', { name: 'Your chat partner' }).getByRole('heading', { name: eve.username })).toBeVisible({
    timeout: 20_000,
  });
  await send(d, 'Back again');
  await expect(messageItem(e, 'Back again')).toBeVisible();
  await expect(messageItem(d, 'Back again')).toContainText('Delivered');
  await Promise.all([dContext.close(), e.context().close()]);
});

test('on a phone a long unbroken word or link wraps in the conversation; the own messages stay on screen', async ({ browser }) => {
  const phone = { width: 390, height: 844 };
  const context = await browser.newContext({ baseURL, serviceWorkers: 'block', viewport: phone, isMobile: true, hasTouch: true });
  const a = await context.newPage();
  const b = await newPage(browser);
  await signUpThroughApi(a, { username: uniqueName('wrapa'), age: 33, gender: 'female' });
  await signUpThroughApi(b, { username: uniqueName('wrapb'), age: 35, gender: 'male' });
  await openTextChat(a);
  await openTextChat(b);
  await b.getByRole('button', { name: 'Start', exact: true }).click();
  await a.getByRole('button', { name: 'Start', exact: true }).click();
  await expect(a.getByRole('region', { name: 'Your chat partner' })).toBeVisible();

  const word = 'Pneumonoultramicroscopicsilicovolcanoconiosis'.repeat(8);
  const link = `https://example.com/${'x'.repeat(250)}?q=${'y'.repeat(60)}`;
  await send(b, word);
  await send(a, link);
  await send(a, 'short one');
  await expect(messageItem(a, word.slice(0, 40))).toBeVisible();
  await expect(messageItem(a, 'short one')).toContainText('Delivered');
  // Nothing is wider than the screen: the conversation does not grow, and the own messages sit inside it.
  const region = a.getByRole('region', { name: 'Messages' });
  expect(await region.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
  expect(await a.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(phone.width);
  for (const text of [link.slice(0, 30), 'short one', word.slice(0, 40)]) {
    const box = (await messageItem(a, text).locator('div').first().boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(phone.width);
  }
  // Touch first: no keyboard hint about Escape.
  await expect(a.getByText(/Esc/)).toHaveCount(0);
  await context.close();
  await b.context().close();
});

test('nobody online fits the filters: said after a few seconds, with who is online, and widened with one tap', async ({ browser }) => {
  const [a, c] = await Promise.all([newPage(browser), newPage(browser)]);
  await signUpThroughApi(a, { username: uniqueName('fita'), age: 25, gender: 'male' });
  await signUpThroughApi(c, { username: uniqueName('fitc'), age: 40, gender: 'female' });
  await openTextChat(c);
  await c.getByRole('button', { name: 'Start', exact: true }).click();
  await expect(c.getByText('Searching...')).toBeVisible();

  await openTextChat(a);
  // Only people of another gender, 95 to 99: nobody online is.
  await a.getByLabel('Show me').selectOption('other');
  await a.getByLabel('Minimum age').fill('95');
  await a.getByRole('button', { name: 'Start', exact: true }).click();
  const status = a.getByTestId('search-status');
  await expect(status).toContainText('Nobody online right now fits your filters', { timeout: 30_000 });
  await expect(status).toContainText(/(\d+ people online|Only you are online) now · (\d+|nobody else) searching/);
  const axe = await new Axe({ page: a }).analyze();
  expect(axe.violations, JSON.stringify(axe.violations, null, 2)).toEqual([]);
  // The same on a phone, where the one tap happens.
  await a.setViewportSize({ width: 390, height: 844 });
  await expect(status.getByRole('button', { name: 'Meet anyone, any age' })).toBeInViewport();
  const axePhone = await new Axe({ page: a }).analyze();
  expect(axePhone.violations, JSON.stringify(axePhone.violations, null, 2)).toEqual([]);
  await status.getByRole('button', { name: 'Meet anyone, any age' }).click();
  // Widened: anyone, any age; the search starts again and meets the woman who was waiting.
  await expect(a.getByRole('region', { name: 'Your chat partner' })).toBeVisible();
  await expect(c.getByRole('region', { name: 'Your chat partner' })).toBeVisible();
  // The filters panel is beside the chat on a desktop (folded away on a phone).
  await a.setViewportSize({ width: 1280, height: 800 });
  await expect(a.getByLabel('Show me')).toHaveValue('All');
  await a.context().close();
  await c.context().close();
});

test('few online: after a skip, "Meet them again" meets the partner now instead of after the pause', async ({ browser }) => {
  test.setTimeout(150_000);
  const [f, g] = await Promise.all([newPage(browser), newPage(browser)]);
  // What Fay's page sends: her search asks to meet her last partner again, by id.
  const sent: string[] = [];
  f.on('websocket', (ws) => ws.on('framesent', (e) => typeof e.payload === 'string' && sent.push(e.payload)));
  await signUpThroughApi(f, { username: uniqueName('fay'), age: 61, gender: 'other' });
  await signUpThroughApi(g, { username: uniqueName('gus'), age: 62, gender: 'other' });
  for (const page of [f, g]) {
    await openTextChat(page);
    await setFilters(page, { gender: 'other' });
  }
  await f.getByRole('button', { name: 'Start', exact: true }).click();
  await expect(f.getByText('Searching...')).toBeVisible();
  await g.getByRole('button', { name: 'Start', exact: true }).click();
  await expect(f.getByRole('region', { name: 'Your chat partner' })).toBeVisible();
  await expect(g.getByRole('region', { name: 'Your chat partner' })).toBeVisible();

  // Gus skips and searches on; Fay reads a while (longer than the 10 s pause: Gus's side of it is
  // over, a time rule of the server's that no event announces), then looks for someone new.
  await g.keyboard.press('Escape');
  await g.keyboard.press('Escape');
  await expect(f.getByText('Stranger has disconnected')).toBeVisible();
  await expect(g.getByText('Searching...')).toBeVisible();
  await f.waitForTimeout(10_500);
  await f.getByRole('button', { name: 'Find someone new' }).click();

  // With so few online she is told why it takes a moment, and offered to meet them again.
  const offer = f.getByTestId('few-online').getByRole('button', { name: 'Meet them again' });
  await expect(offer).toBeVisible({ timeout: 9000 });
  await offer.click();
  // Her search started again at the click and asks for Gus: only her side's pause is lifted, and
  // his is over, so they meet now (without the wish, 10 s after the click: longer than this wait).
  await expect(f.getByRole('region', { name: 'Your chat partner' })).toBeVisible({ timeout: 7000 });
  await expect(g.getByRole('region', { name: 'Your chat partner' })).toBeVisible();
  expect(sent.some((m) => m.includes('"chat:start"') && /"meetAgain":\["[0-9a-f-]{36}"\]/.test(m))).toBe(true);
  await send(g, 'Hello again, Fay');
  await expect(messageItem(f, 'Hello again, Fay')).toBeVisible();
  const axe = await new Axe({ page: f }).analyze();
  expect(axe.violations, JSON.stringify(axe.violations, null, 2)).toEqual([]);
  await Promise.all([f.context().close(), g.context().close()]);
});
