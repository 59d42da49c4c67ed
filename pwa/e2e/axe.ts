import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect, type Page } from '@playwright/test';
import type * as AxeCore from 'axe-core';

// The axe-core that @axe-core/playwright ships with, so both always agree on the rules.
const axeSource = readFileSync(
  createRequire(createRequire(import.meta.url).resolve('@axe-core/playwright')).resolve('axe-core/axe.min.js'),
  'utf8',
);

/**
 * Axe on the page's document with its default rules, reporting violations, as
 * `@axe-core/playwright`'s AxeBuilder would: that one injects axe again and opens a blank page to
 * finish each run, so it took 0.8–1.6 s a page where this takes 0.2–0.5 s, on a suite that runs
 * hundreds. It skips frames, which Parley's pages do not have.
 */
export class Axe {
  private readonly selectors: string[] = [];
  constructor(private readonly target: { page: Page }) {}

  /** Only this part of the page (a CSS selector); may be called more than once. */
  include(selector: string): this {
    this.selectors.push(selector);
    return this;
  }

  async analyze(): Promise<{ violations: AxeCore.Result[] }> {
    const { page } = this.target;
    // Colours mid-transition (a theme just switched, a menu fading in) are not the page's colours:
    // wait for finite animations and transitions to end first (spinners run forever and are left).
    await page.evaluate(() =>
      Promise.race([
        Promise.all(
          document
            .getAnimations()
            .filter((a) => a.effect?.getComputedTiming().endTime !== Infinity)
            .map((a) => a.finished.catch(() => undefined)),
        ),
        new Promise((r) => setTimeout(r, 3_000)),
      ]),
    );
    // Once per document: a navigation brings a fresh window without it.
    if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
    const violations = await page.evaluate(async (include) => {
      const axe = (window as unknown as { axe: typeof AxeCore }).axe;
      const context: AxeCore.ElementContext = include.length > 0 ? { include: include.map((s) => [s]) } : document;
      return (await axe.run(context, { resultTypes: ['violations'] })).violations;
    }, this.selectors);
    return { violations };
  }
}

/** The two screens every page must serve: a desktop and a 390 px phone. */
export const SCREENS = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
] as const;

/** Axe finds nothing on the page as it stands, at each of SCREENS in turn. */
export async function expectAxeCleanOnBothScreens(page: Page) {
  for (const viewport of SCREENS) {
    await page.setViewportSize(viewport);
    const axe = await new Axe({ page }).analyze();
    expect(axe.violations, `${viewport.width} px: ${JSON.stringify(axe.violations, null, 2)}`).toEqual([]);
  }
}
