import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Browser, type Page } from './fixtures';
import { e2ePort } from '../playwright.config';
import { postLogin, postSignup } from './signup';
import { signupAt } from '../../api/src/testing/proofOfWork';
import { Secret, TOTP } from 'otpauth';
import type { APIRequestContext } from '@playwright/test';
import { Axe } from './axe';

test.use({ serviceWorkers: 'block' });

const PASSWORD = 'a good long password';
const uniqueName = (prefix: string) => `${prefix}${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`.slice(0, 20);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
// A server of its own: its moderator is made with the command-line tool, which needs the embedded
// database closed (PGlite is opened by one process at a time).
const port = e2ePort(3);
const url = `http://localhost:${port}`;
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'parley-e2e-safety-'));
let server: ChildProcess | undefined;
/** ModMia's recovery codes: moderators work with two-factor on, and each sign-in here spends one. */
let modCodes: string[] = [];

/** Signs ModMia in: the password, then a recovery code as the second factor. */
async function modLogin(request: APIRequestContext) {
  const first = await postLogin(request, { data: { username: 'ModMia', password: PASSWORD } });
  const { pending } = ((await first.json()) as { secondFactor: { pending: string } }).secondFactor;
  const done = await request.post('/api/auth/second-factor', { data: { pending, recoveryCode: modCodes.shift() } });
  expect(done.status()).toBe(200);
}

async function startServer() {
  server = spawn(process.execPath, [path.join(root, 'scripts/start.mjs')], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      SKIP_PWA_BUILD: 'true',
      SIGNUPS_PER_ADDRESS: '1000',
    },
    stdio: 'inherit',
  });
  await expect
    .poll(
      () =>
        fetch(`${url}/api/health`).then(
          (r) => r.status,
          () => 0,
        ),
      { timeout: 60_000 },
    )
    .toBe(200);
}
async function stopServer() {
  const s = server;
  if (!s || s.exitCode !== null) return;
  await new Promise<void>((resolve) => {
    s.once('exit', () => resolve());
    s.kill('SIGTERM');
  });
}

async function personPage(browser: Browser, username: string, viewport?: { width: number; height: number }): Promise<Page> {
  const context = await browser.newContext({ baseURL: url, serviceWorkers: 'block', ...(viewport ? { viewport } : {}) });
  const page = await context.newPage();
  const res = await postSignup(page.request, { data: { username, password: PASSWORD, age: 30, gender: 'female' } });
  expect(res.status(), await res.text()).toBe(201);
  return page;
}

test.beforeAll(async () => {
  test.setTimeout(180_000);
  await startServer();
  const res = await signupAt(url, { username: 'ModMia', password: PASSWORD, age: 35, gender: 'female' });
  expect(res.status).toBe(201);
  // Two-factor on (an authenticator app), as a moderator needs it.
  const headers = {
    authorization: `Bearer ${((await res.json()) as { accessToken: string }).accessToken}`,
    'content-type': 'application/json',
  };
  const setup = (await (await fetch(`${url}/api/auth/totp/setup`, { method: 'POST', headers, body: '{}' })).json()) as { secret: string };
  const code = new TOTP({ secret: Secret.fromBase32(setup.secret) }).generate();
  const confirmed = await fetch(`${url}/api/auth/totp/confirm`, { method: 'POST', headers, body: JSON.stringify({ code }) });
  modCodes = ((await confirmed.json()) as { codes: string[] }).codes;
  // A second moderator without two-factor, to be sent to set it up.
  expect((await signupAt(url, { username: 'ModNoor', password: PASSWORD, age: 40, gender: 'male' })).status).toBe(201);
  await stopServer();
  for (const name of ['ModMia', 'ModNoor']) {
    const role = spawnSync('npm', ['run', '-s', 'role', '--', name, 'moderator'], {
      cwd: root,
      env: { ...process.env, DATA_DIR: dataDir },
      encoding: 'utf8',
    });
    expect(role.stdout).toContain(`${name} is now moderator.`);
  }
  await startServer();
});
test.afterAll(stopServer);

test('a stranger misbehaves: reported in two taps, seen by a moderator at once with the messages, banned, and kept out', async ({
  browser,
}) => {
  test.setTimeout(150_000);
  const trollName = uniqueName('troll');
  const [troll, victim] = await Promise.all([
    personPage(browser, trollName),
    personPage(browser, uniqueName('vic'), { width: 390, height: 844 }),
  ]);

  // The moderator's queue is open before the report is made.
  const modContext = await browser.newContext({ baseURL: url, serviceWorkers: 'block' });
  const mod = await modContext.newPage();
  await modLogin(mod.request);
  await mod.goto('/moderation');
  await expect(mod.getByRole('heading', { name: 'Moderation' })).toBeVisible();
  await expect(mod.getByText('No open reports. Well done, everyone.')).toBeVisible();

  for (const p of [troll, victim]) {
    await p.goto('/textchat');
    await expect(p.getByRole('button', { name: 'Start', exact: true })).toBeEnabled();
    await p.getByRole('button', { name: 'Start', exact: true }).click();
  }
  const box = troll.getByRole('textbox', { name: 'Message' });
  await expect(box).toBeEnabled();
  await box.fill('you are awful and I will find you');
  await box.press('Enter');
  await expect(victim.getByRole('log').getByText('you are awful and I will find you')).toBeVisible();

  // Two taps: Report, a reason, Send.
  await victim.getByRole('button', { name: 'Report', exact: true }).click();
  const dialog = victim.getByRole('dialog', { name: `Report ${trollName}` });
  await expect(dialog).toBeVisible();
  await new Axe({ page: victim })
    .include('dialog')
    .analyze()
    .then(({ violations }) => expect(violations).toEqual([]));
  await dialog.getByText('Threats or violence').click();
  await dialog.getByRole('button', { name: 'Send report' }).click();
  await expect(victim.getByText('Report sent', { exact: true })).toBeVisible();

  // The moderator sees it without reloading, with the message as Parley relayed it.
  await expect(mod.getByRole('button', { name: new RegExp(trollName) })).toBeVisible({ timeout: 3000 });
  await mod.getByRole('button', { name: new RegExp(trollName) }).click();
  await expect(
    mod.getByRole('list', { name: 'Messages, as the server holds them' }).getByText('you are awful and I will find you'),
  ).toBeVisible();
  const { violations } = await new Axe({ page: mod }).analyze();
  expect(violations.map((v) => v.id)).toEqual([]);
  const decision = mod.getByRole('form', { name: 'Decision' });
  await decision.getByLabel('Action').selectOption('ban');
  await decision.getByLabel('Rule broken').selectOption('violence');
  await decision.getByRole('button', { name: 'Ban' }).click();

  // The banned person is signed out at once, cannot sign back in, nor start over from this browser.
  await expect(troll).toHaveURL(/\/login/, { timeout: 5000 });
  await troll.getByLabel('Username').fill(trollName);
  await troll.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await troll.getByRole('button', { name: 'Login', exact: true }).click();
  await expect(troll.getByText('This account is banned for breaking the rule “No threats or violence”.', { exact: false })).toBeVisible();
  await expect(troll.getByRole('link', { name: 'Appeal this decision' })).toBeVisible();
  const again = await postSignup(troll.request, {
    data: { username: uniqueName('troll2'), password: PASSWORD, age: 30, gender: 'male' },
  });
  expect(again.status()).toBe(403);
  expect(((await again.json()) as { message: string }).message).toBe('New accounts cannot be made from this device.');
});

test('a message in a group room is reported from its actions and reaches the moderators’ queue with the messages around it', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const rudeName = uniqueName('rude');
  const [rude, reader] = await Promise.all([
    personPage(browser, rudeName),
    personPage(browser, uniqueName('rdr'), { width: 390, height: 844 }),
  ]);
  const modContext = await browser.newContext({ baseURL: url, serviceWorkers: 'block' });
  const mod = await modContext.newPage();
  await modLogin(mod.request);
  await mod.goto('/moderation');
  await expect(mod.getByRole('heading', { name: 'Moderation' })).toBeVisible();

  // The rude person makes a room and says something in it; the reader joins and reads it.
  await rude.goto('/groupchat');
  await rude.getByRole('button', { name: 'Create a room' }).click();
  await rude.getByLabel('Room name').fill(`Late talk ${rudeName.slice(-4)}`);
  await rude.getByLabel('Category', { exact: true }).selectOption('Music');
  await rude.getByRole('button', { name: 'Create room' }).click();
  await expect(rude).toHaveURL(/\/groupchat\/[0-9a-f-]{36}$/);
  const roomId = rude.url().split('/').pop()!;
  const box = rude.getByRole('textbox', { name: 'Message' });
  for (const line of ['welcome', 'people like you should disappear']) {
    await box.fill(line);
    await box.press('Enter');
    await expect(rude.getByRole('log').getByText(line, { exact: true })).toBeVisible();
  }
  await reader.goto(`/groupchat/${roomId}`);
  await reader.getByRole('button', { name: 'Join room' }).click();
  const rudeLine = reader.getByRole('log').getByRole('listitem').filter({ hasText: 'people like you should disappear' });
  await expect(rudeLine).toBeVisible();

  // From the message's actions: Report, a reason, Send.
  await rudeLine.getByRole('button', { name: `Actions for ${rudeName}'s message` }).click();
  await rudeLine.getByRole('button', { name: `Report ${rudeName}'s message` }).click();
  const dialog = reader.getByRole('dialog', { name: `Report ${rudeName}` });
  await expect(dialog.getByRole('checkbox', { name: `Also block ${rudeName}`, exact: false })).toBeChecked();
  await new Axe({ page: reader })
    .include('dialog')
    .analyze()
    .then(({ violations }) => expect(violations).toEqual([]));
  await dialog.getByText('Hate', { exact: true }).click();
  await dialog.getByRole('button', { name: 'Send report' }).click();
  await expect(reader.getByText('Report sent', { exact: true })).toBeVisible();

  // The moderator sees it without reloading, the reported message marked among the room's messages.
  await expect(mod.getByRole('button', { name: new RegExp(rudeName) })).toBeVisible({ timeout: 3000 });
  await mod.getByRole('button', { name: new RegExp(rudeName) }).click();
  const evidence = mod.getByRole('list', { name: 'Messages, as the server holds them' });
  await expect(evidence.getByRole('listitem').filter({ hasText: 'the reported message' })).toContainText(
    'people like you should disappear',
  );
  await expect(evidence.getByText('welcome')).toBeVisible();
  const { violations } = await new Axe({ page: mod }).analyze();
  expect(violations.map((v) => v.id)).toEqual([]);
  await modContext.close();
});

test('a moderator without two-factor opening /moderation is sent to turn it on, and gets in once it is on', async ({ browser }) => {
  const context = await browser.newContext({ baseURL: url, serviceWorkers: 'block' });
  const mod = await context.newPage();
  expect((await postLogin(mod.request, { data: { username: 'ModNoor', password: PASSWORD } })).status()).toBe(200);
  await mod.goto('/moderation');
  await expect(mod).toHaveURL(/\/settingboard#two-factor$/);
  await expect(mod.getByRole('alert').filter({ hasText: 'Moderators and admins must turn on two-factor sign-in' })).toBeVisible();
  await mod.getByRole('button', { name: 'Set up an authenticator app' }).click();
  const app = new TOTP({ secret: Secret.fromBase32((await mod.getByTestId('totp-secret').textContent())!.trim()) });
  await mod.getByLabel('Six-digit code from the app').fill(app.generate());
  await mod.getByRole('button', { name: 'Turn on', exact: true }).click();
  await mod.getByRole('button', { name: 'I saved them' }).click();
  await expect(mod.getByText('Two-factor sign-in is on with an authenticator app.')).toBeVisible();
  await mod.goto('/moderation');
  await expect(mod.getByRole('heading', { name: 'Moderation' })).toBeVisible();
  await expect(mod).toHaveURL(/\/moderation$/);
  await context.close();
});
