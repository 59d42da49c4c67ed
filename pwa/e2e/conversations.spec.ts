import { expect, test, type Browser, type Locator, type Page } from './fixtures';
import { baseURL } from '../playwright.config';
import { goLive } from './live';
import { befriend, signUp, uniqueName } from './people';

// Service workers would serve a cached shell; this test wants the build under test.
test.use({ serviceWorkers: 'block' });

type Person = Page & { who: { username: string; token: string; userId: string } };

/** A signed-up person in a context of their own, camera and microphone allowed (fake devices). */
async function person(browser: Browser, prefix: string, viewport: { width: number; height: number }): Promise<Person> {
  const context = await browser.newContext({ baseURL, serviceWorkers: 'block', permissions: ['camera', 'microphone'], viewport });
  const page = await context.newPage();
  page.on('pageerror', (err) => console.error(`[${prefix}] page error:`, err.message));
  return Object.assign(page, { who: await signUp(page, uniqueName(prefix)) });
}

/** A message as every kind's one conversation view lists it: an item of the page's message log. */
const item = (log: Locator, text: string) => log.getByRole('listitem').filter({ hasText: text });

/** The message's own actions: behind "Actions for…" in a bubble, in line on a dark panel. */
async function actionsOf(row: Locator) {
  const toggle = row.getByRole('button', { name: /^Actions for/ });
  if ((await toggle.count()) > 0 && (await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
  return row;
}

/**
 * One exchange in a conversation that keeps what was said while it lasts: `a` writes, `b` reads;
 * `a` edits, `b` sees the edit; `b` reacts, `a` sees the reaction; `a` deletes, `b` sees it gone.
 * The same steps, on the same view, whatever the kind.
 */
async function exchange(a: Page, b: Page, logOf: (p: Page) => Locator, text: string) {
  const box = a.getByRole('textbox', { name: 'Message', exact: true });
  // A second 1:1 chat of the same two waits out the matchmaker's recent-partner pause.
  await expect(box).toBeEnabled({ timeout: 45_000 });
  await box.fill(text);
  await box.press('Enter');
  await expect(item(logOf(b), text)).toBeVisible();

  const edited = `${text}, edited`;
  const mine = await actionsOf(item(logOf(a), text));
  await mine.getByRole('button', { name: 'Edit', exact: true }).click();
  // While edited, the row holds the text in a box (no longer its text content): found by its label.
  await a.getByRole('textbox', { name: 'Edit message' }).fill(edited);
  await a.getByRole('button', { name: 'Save' }).click();
  await expect(item(logOf(b), edited)).toContainText(/edited/);

  const theirs = await actionsOf(item(logOf(b), edited));
  await theirs.getByRole('button', { name: 'React 👍' }).click();
  await expect(item(logOf(a), edited).getByRole('button', { name: /👍 1/ })).toBeVisible();

  const again = await actionsOf(item(logOf(a), edited));
  await again.getByRole('button', { name: 'Delete', exact: true }).click();
  // Asked in the app's own dialog, not the browser's.
  await a.getByRole('dialog', { name: 'Delete this message for everyone?' }).getByRole('button', { name: 'Delete' }).click();
  await expect(logOf(b).getByText('This message was deleted.')).toBeVisible();
  await expect(logOf(b).getByText(edited)).toHaveCount(0);
}

test('one conversation view in all five kinds: direct, group, text chat, video chat and a stream’s chat', async ({ browser }) => {
  test.setTimeout(300_000);
  const a = await person(browser, 'five', { width: 1280, height: 800 });
  const b = await person(browser, 'kind', { width: 390, height: 844 });
  const log = (p: Page) => p.getByRole('log');

  // Direct messages between friends.
  await befriend(a, a.who.token, b, b.who.token, b.who.username);
  await a.goto(`/messages/${b.who.username}`);
  await b.goto(`/messages/${a.who.username}`);
  await exchange(a, b, log, 'hello in a direct message');

  // A group room: one creates it, the other joins.
  await a.goto('/groupchat');
  await a.getByRole('button', { name: 'Create a room' }).click();
  await a.getByLabel('Room name').fill(uniqueName('Five kinds '));
  await a.getByLabel('Category', { exact: true }).selectOption('Music');
  await a.getByRole('button', { name: 'Create room' }).click();
  await expect(a).toHaveURL(/\/groupchat\/[0-9a-f-]{36}$/);
  await b.goto(new URL(a.url()).pathname);
  await b.getByRole('button', { name: 'Join room' }).click();
  await exchange(a, b, log, 'hello in a group room');

  // A 1:1 text chat: the matchmaker pairs them (nobody else is searching on this server).
  await Promise.all([a.goto('/textchat'), b.goto('/textchat')]);
  await a.getByRole('button', { name: 'Start', exact: true }).click();
  await b.getByRole('button', { name: 'Start', exact: true }).click();
  await exchange(a, b, log, 'hello in a text chat');

  // A 1:1 video chat: the same messages in the panel beside the video (on a wide screen, where the panel is always shown).
  await b.setViewportSize({ width: 1280, height: 800 });
  await Promise.all([a.goto('/videochat'), b.goto('/videochat')]);
  // Each starts once its camera is on; the pair just met, so the matcher waits out RECENT_PARTNER_COOLDOWN_MS.
  for (const p of [a, b]) await expect(p.getByTestId('preview-placeholder')).toBeHidden({ timeout: 30_000 });
  await a.getByRole('button', { name: 'Start', exact: true }).click();
  await b.getByRole('button', { name: 'Start', exact: true }).click();
  await exchange(a, b, log, 'hello in a video chat');

  // A stream's chat: lines as they were sent (no edits or reactions), which the broadcaster moderates.
  const stream = await goLive(a, uniqueName('Five kinds live '));
  await b.goto(stream);
  const streamLog = (p: Page) => p.getByTestId('live-chat');
  await b.getByLabel('Message the stream').fill('hello in a stream');
  await b.getByRole('button', { name: 'Send' }).click();
  await expect(item(streamLog(a), 'hello in a stream')).toBeVisible();
  const line = await actionsOf(item(streamLog(b), 'hello in a stream'));
  await expect(line.getByRole('button', { name: 'Edit', exact: true })).toHaveCount(0);
  await expect(line.getByRole('button', { name: 'React 👍' })).toHaveCount(0);
  await item(streamLog(a), 'hello in a stream')
    .getByRole('button', { name: `Delete message from ${b.who.username}` })
    .click();
  await expect(streamLog(b).getByText('hello in a stream')).toHaveCount(0);
});
