import type { Browser, BrowserContextOptions, Page } from '@playwright/test';
import { postSignup } from './signup';

/**
 * The first five minutes, as a person who has never seen Parley plays them on a phone: open `/`,
 * tap "Start a conversation", type a name, a password, an age, choose a gender, tick the terms,
 * tap "Create account", and be matched with a stranger who was already searching. Nothing waits
 * on a clock: each step waits only for what the app shows next. Shared by the end-to-end spec
 * (pwa/e2e/firstrun.spec.ts) and `npm run bench:firstrun`.
 */

export const PHONE: BrowserContextOptions = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };
const PASSWORD = 'a good long password';
const TIMEOUT = 30_000;

export const uniqueName = (prefix: string) => `${prefix}${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`.slice(0, 20);

export type FirstRunTiming = {
  /** From opening `/` to the partner's card on screen. */
  totalMs: number;
  /** Time spent in the person's own taps and typing. */
  actingMs: number;
  /** Time spent waiting for the app to show the next thing (pages, the server's answers, the match). */
  waitingMs: number;
  /** Each wait by name: what the app was doing. */
  waits: Record<string, number>;
};

/** A second person, signed up through the API, already searching on /textchat (default filters: anyone). */
export async function partnerSearching(browser: Browser, baseURL: string): Promise<Page> {
  const context = await browser.newContext({ baseURL, serviceWorkers: 'block' });
  const page = await context.newPage();
  const res = await postSignup(page.request, {
    data: { username: uniqueName('ana'), password: PASSWORD, age: 29, gender: 'female' },
  });
  if (res.status() !== 201) throw new Error(`partner sign-up: ${res.status()} ${await res.text()}`);
  await page.goto('/textchat');
  // Enabled once the connection is up.
  const start = page.getByRole('button', { name: 'Start', exact: true }).and(page.locator(':not([disabled])'));
  await start.click({ timeout: TIMEOUT });
  await page.getByText('Searching...').waitFor({ timeout: TIMEOUT });
  return page;
}

/** Plays the new person on `page` (a phone context); returns how long it took and where the time went. */
export async function playFirstRun(page: Page, username = uniqueName('new')): Promise<FirstRunTiming> {
  let acting = 0;
  const waits: Record<string, number> = {};
  const act = async (step: () => Promise<unknown>) => {
    const t = performance.now();
    await step();
    acting += performance.now() - t;
  };
  const wait = async (name: string, step: () => Promise<unknown>) => {
    const t = performance.now();
    await step();
    waits[name] = (waits[name] ?? 0) + performance.now() - t;
  };

  const t0 = performance.now();
  await wait('landing page', () => page.goto('/', { waitUntil: 'commit' }));
  const cta = page.getByRole('link', { name: 'Start a conversation' });
  await wait('landing page', () => cta.waitFor({ timeout: TIMEOUT }));
  await act(() => cta.tap());
  const name = page.getByLabel('Username', { exact: true });
  await wait('sign-up screen', () => name.waitFor({ timeout: TIMEOUT }));
  await act(async () => {
    await name.fill(username);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Age', { exact: true }).fill('27');
    await page.getByLabel('Gender', { exact: true }).selectOption('male');
    await page.getByRole('checkbox', { name: /I am 18 or older/ }).tap();
  });
  // The bot check is solved while a person types; this script types in milliseconds, so what is
  // left of it is counted apart (a person who takes a few seconds to fill the form never waits).
  await wait('bot check (solved while a person types)', () =>
    page.waitForFunction(
      () => (document.querySelector('altcha-widget') as (HTMLElement & { getState?: () => string }) | null)?.getState?.() === 'verified',
      undefined,
      { timeout: TIMEOUT },
    ),
  );
  await act(() => page.getByRole('button', { name: 'Create account' }).tap());
  // Signed up, the text chat opens and searches by itself; the stranger already waits.
  await wait('text chat and match', () =>
    page.getByRole('region', { name: 'Your chat partner' }).getByRole('heading').waitFor({ timeout: TIMEOUT }),
  );
  const totalMs = performance.now() - t0;
  const waitingMs = Object.values(waits).reduce((a, b) => a + b, 0);
  return {
    totalMs,
    actingMs: acting,
    waitingMs,
    waits: Object.fromEntries(Object.entries(waits).map(([k, v]) => [k, Math.round(v)])),
  };
}
