import { test as base } from '@playwright/test';

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
