import { expect, test, type Browser, type Page } from './fixtures';
import { baseURL } from '../playwright.config';
import { postSignup } from './signup';

test.use({ serviceWorkers: 'block' });
test.setTimeout(150_000);

const PASSWORD = 'a good long password';
const uniqueName = (prefix: string) => `${prefix}${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`.slice(0, 20);
const PHONE = { width: 390, height: 844 };

async function person(browser: Browser, prefix: string, opts: { viewport?: typeof PHONE; media?: boolean } = {}) {
  const context = await browser.newContext({
    baseURL,
    serviceWorkers: 'block',
    ...(opts.media ? { permissions: ['camera', 'microphone'] } : {}),
    ...(opts.viewport ? { viewport: opts.viewport } : {}),
  });
  const page = await context.newPage();
  page.on('pageerror', (err) => console.error(`[${prefix}] page error:`, err.message));
  const username = uniqueName(prefix);
  const res = await postSignup(page.request, { data: { username, password: PASSWORD, age: 30, gender: 'female' } });
  expect(res.status(), await res.text()).toBe(201);
  return { page, username };
}

async function reportWithBlock(page: Page, name: string) {
  const report = page.getByRole('button', { name: 'Report', exact: true });
  // Reachable as it is: on screen, no scrolling, no panel to open.
  await expect(report).toBeInViewport();
  await report.click();
  const dialog = page.getByRole('dialog', { name: `Report ${name}` });
  await dialog.getByText('Harassment or bullying').click();
  await expect(dialog.getByRole('checkbox', { name: new RegExp(`Also block ${name}`) })).toBeChecked();
  await dialog.getByRole('button', { name: 'Send report' }).click();
  await expect(page.getByText('Report sent', { exact: true })).toBeVisible();
}

test('text chat on a phone: Report stays on screen; report with block ends the chat on both screens at once', async ({ browser }) => {
  const reporter = await person(browser, 'rep', { viewport: PHONE });
  const troll = await person(browser, 'trl');
  for (const p of [reporter.page, troll.page]) {
    await p.goto('/textchat');
    await expect(p.getByRole('button', { name: 'Start', exact: true })).toBeEnabled();
    await p.getByRole('button', { name: 'Start', exact: true }).click();
  }
  const box = troll.page.getByRole('textbox', { name: 'Message' });
  await expect(box).toBeEnabled();
  // Enough lines that the start of the conversation scrolls away on a phone.
  for (let i = 1; i <= 14; i++) {
    await box.fill(`line ${i} you are awful`);
    await box.press('Enter');
    await expect(reporter.page.getByRole('log').getByText(`line ${i} you are awful`)).toBeVisible();
  }

  await reportWithBlock(reporter.page, troll.username);
  await expect(reporter.page.getByText(`You reported ${troll.username}. This chat has ended.`)).toBeVisible();
  await expect(reporter.page.getByRole('button', { name: 'Next', exact: true })).toBeVisible();
  await expect(reporter.page.getByRole('textbox', { name: 'Message' })).toBeDisabled();
  // The reported person is told only that the stranger left, and cannot write on.
  await expect(troll.page.getByText('Stranger has disconnected')).toBeVisible();
  await expect(troll.page.getByRole('textbox', { name: 'Message' })).toBeDisabled();
  await expect(troll.page.getByText(/reported/i)).toHaveCount(0);
});

test('video chat on a phone: Report is on the video; report with block ends the call on both screens at once', async ({ browser }) => {
  const reporter = await person(browser, 'vrep', { viewport: PHONE, media: true });
  const troll = await person(browser, 'vtrl', { media: true });
  for (const p of [reporter.page, troll.page]) {
    await p.goto('/videochat');
    await expect(p.getByTestId('preview-placeholder')).toBeHidden();
    await expect(p.getByRole('button', { name: 'Start', exact: true })).toBeEnabled();
    await p.getByRole('button', { name: 'Start', exact: true }).click();
  }
  for (const p of [reporter.page, troll.page]) await expect(p.getByTestId('remote-video')).toBeVisible({ timeout: 30_000 });

  // The chat panel stays closed on the phone: Report is on the video itself.
  await expect(reporter.page.locator('#video-chat-panel')).toBeHidden();
  await reportWithBlock(reporter.page, troll.username);
  await expect(reporter.page.getByTestId('video-status')).toHaveText(
    `You reported ${troll.username}. This chat has ended. Press Next to meet someone new.`,
  );
  await expect(troll.page.getByTestId('video-status')).toHaveText('Stranger has disconnected');
  // Each page has closed its call: neither shows the other's video any more.
  for (const p of [reporter.page, troll.page]) await expect(p.getByTestId('remote-video')).toBeHidden();
  await expect(reporter.page.getByRole('button', { name: 'Next', exact: true })).toBeVisible();
});
