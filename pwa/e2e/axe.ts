import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** The two screens every page must serve: a desktop and a 390 px phone. */
export const SCREENS = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
] as const;

/** Axe finds nothing on the page as it stands, at each of SCREENS in turn. */
export async function expectAxeCleanOnBothScreens(page: Page) {
  for (const viewport of SCREENS) {
    await page.setViewportSize(viewport);
    const axe = await new AxeBuilder({ page }).analyze();
    expect(axe.violations, `${viewport.width} px: ${JSON.stringify(axe.violations, null, 2)}`).toEqual([]);
  }
}
