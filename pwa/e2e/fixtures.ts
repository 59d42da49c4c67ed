import { test as base, type Page } from '@playwright/test';

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
