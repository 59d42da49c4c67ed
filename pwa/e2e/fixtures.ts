import { test as base, expect, type Page } from '@playwright/test';

export * from '@playwright/test';

/**
 * The specs' `test`: contexts a test opens itself are closed when it ends, so the people it
 * signed in go offline and do not show up in the next spec's online counts or live lists.
 */
export const test = base.extend<{ closeOwnContexts: void }>({
  closeOwnContexts: [
    async ({ browser }, use) => {
      const before = new Set(browser.contexts());
      await use();
      await Promise.all(
        browser
          .contexts()
          .filter((c) => !before.has(c))
          .map((c) => c.close().catch(() => undefined)),
      );
    },
    { auto: true },
  ],
});

/**
 * Opens the login page and waits until the app has taken over its pre-rendered form: `fill` writes
 * into one element, and the pre-rendered one is replaced when the app's form takes its place.
 */
export async function openLogin(page: Page, url = '/login'): Promise<void> {
  await page.goto(url);
  await appTookOver(page);
}

/** Waits until the app has replaced a pre-rendered page with its own elements (the root drops `data-prerendered`). */
export async function appTookOver(page: Page): Promise<void> {
  await page.locator('#root:not([data-prerendered])').waitFor({ state: 'attached' });
}

/**
 * Moves to `path` inside the running app, as a link does (the router's history, no reload), and
 * waits for the new page to take the old one's place (its title); already there, it stays. A full
 * load costs a page 1–2 s of CPU in this headless browser, a move inside the app a fifth of it:
 * specs that visit many pages to check each one move this way, and load a page afresh only where
 * loading is the point.
 */
export async function goInApp(page: Page, path: string): Promise<void> {
  const here = new URL(page.url());
  const there = new URL(path, here);
  if (there.pathname === here.pathname && there.search === here.search) return;
  const before = await page.title();
  await page.evaluate((to) => {
    history.pushState({}, '', to);
    dispatchEvent(new PopStateEvent('popstate'));
  }, path);
  await expect.poll(() => new URL(page.url()).pathname).toBe(there.pathname);
  await expect.poll(() => page.title(), { message: `the page at ${path} took over` }).not.toBe(before);
}
