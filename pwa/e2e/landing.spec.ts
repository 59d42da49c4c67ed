import { appTookOver, expect, test, type Page } from './fixtures';
import {
  DEFAULT_LAYOUT_ANIMATION_S,
  FEATURES_SCROLL_OFFSET_PX,
  INTRO_FADE_IN_S,
  INTRO_FADE_IN_STAGGER_S,
  MOBILE_BREAKPOINT_PX,
  RESIZE_BLOCK_MS,
} from '../src/lib/uiConstants.ts';
import { Axe } from './axe';

test.use({ serviceWorkers: 'block', viewport: { width: 1280, height: 800 } });

const SECTIONS = [
  { id: 'home', label: 'Home' },
  { id: 'mission', label: 'Our Mission' },
  { id: 'features', label: 'Features' },
  { id: 'contact', label: 'Contact' },
] as const;
type SectionId = (typeof SECTIONS)[number]['id'];

const sectionNav = (page: Page) => page.getByRole('banner').getByRole('navigation', { name: 'Landing page sections' });
const navButton = (page: Page, label: string) => sectionNav(page).getByRole('button', { name: label, exact: true });

/** The window's scroll position on every frame for `ms` milliseconds, sampled inside the page. */
function recordScroll(page: Page, ms: number): Promise<number[]> {
  return page.evaluate(
    (duration) =>
      new Promise<number[]>((resolve) => {
        const seen: number[] = [];
        const start = performance.now();
        const frame = () => {
          seen.push(Math.round(window.scrollY));
          if (performance.now() - start < duration) requestAnimationFrame(frame);
          else resolve(seen);
        };
        frame();
      }),
    ms,
  );
}

/**
 * Where a section's top is relative to the viewport, and whether the page is scrolled to its end;
 * null while the landing page is not rendered yet (just after a navigation to it).
 */
function sectionPosition(page: Page, id: SectionId) {
  return page.evaluate((sectionId) => {
    const section = document.getElementById(sectionId);
    if (!section) return null;
    const top = section.getBoundingClientRect().top;
    const atBottom = Math.ceil(window.scrollY + window.innerHeight) >= document.documentElement.scrollHeight - 1;
    return { top: Math.round(top), atBottom, scrollY: Math.round(window.scrollY) };
  }, id);
}

async function expectActive(page: Page, label: string | null) {
  for (const s of SECTIONS) {
    const button = navButton(page, s.label);
    if (s.label === label) await expect(button).toHaveAttribute('aria-current', 'true');
    else await expect(button).not.toHaveAttribute('aria-current', 'true');
  }
}

/** Expected resting place of a section after its nav button: the top, Features 112 px short. */
async function expectAtSection(page: Page, id: SectionId) {
  await expect
    .poll(async () => {
      const p = await sectionPosition(page, id);
      if (!p) return false;
      if (id === 'home') return p.scrollY === 0;
      if (id === 'features') return Math.abs(p.top - FEATURES_SCROLL_OFFSET_PX) <= 1;
      return Math.abs(p.top) <= 1 || (p.atBottom && p.top > 0);
    })
    .toBe(true);
}

async function scrollInstantly(page: Page, y: number | 'bottom') {
  await page.evaluate(
    (to) => window.scrollTo({ top: to === 'bottom' ? document.documentElement.scrollHeight : to, behavior: 'instant' }),
    y,
  );
}

test.describe('landing page', () => {
  test('has the four sections in order, with the spec’s headings and the Contact us link', async ({ page }) => {
    await page.goto('/');
    const ids = await page.locator('main > section').evaluateAll((els) => els.map((e) => e.id));
    expect(ids).toEqual(['home', 'mission', 'features', 'contact']);
    await expect(page.locator('#home h1')).toContainText(/explore/i);
    await expect(page.locator('#mission').getByRole('heading', { name: 'Our Mission' })).toBeVisible();
    await expect(page.locator('#features').getByRole('heading', { name: 'What Makes Us Different' })).toBeVisible();
    const blurbs = page.locator('#features h3');
    await expect(blurbs).toHaveText(['Great Community', 'No Bots. No Trolls', 'Development of New Features', 'Great Support']);
    await expect(page.locator('#contact').getByRole('link', { name: 'Contact us' })).toHaveAttribute('href', '/contact-support');
    const preview = page.getByTestId('app-preview').getByRole('img');
    await expect(preview).toHaveAttribute('loading', 'lazy');
    await expect(preview).toHaveAttribute('width', /\d+/);
    await expect(preview).toHaveAttribute('height', /\d+/);
  });

  test('the page is in the HTML: it reads right before any script runs, at phone and desktop widths', async ({ browser, request }) => {
    for (const viewport of [
      { width: 390, height: 844 },
      { width: 1280, height: 800 },
    ]) {
      const context = await browser.newContext({ javaScriptEnabled: false, viewport });
      const page = await context.newPage();
      await page.goto('/');
      await expect(page.locator('#home h1')).toContainText(/explore/i);
      await expect(page.locator('#features').getByRole('heading', { name: 'What Makes Us Different' })).toBeVisible();
      await expect(page.locator('#contact').getByRole('link', { name: 'Contact us' })).toBeVisible();
      // Both layouts are in the page; CSS shows the one for this width (the app then keeps only that one).
      const phone = viewport.width <= MOBILE_BREAKPOINT_PX;
      await expect(page.getByRole('banner').getByRole('button', { name: 'Menu' })).toBeVisible({ visible: phone });
      await expect(navButton(page, 'Features')).toBeVisible({ visible: !phone });
      await expect(page.getByTestId('app-preview').and(page.locator(`[data-layout=${phone ? 'mobile' : 'desktop'}]`))).toBeVisible();
      await expect(page.getByTestId('app-preview').and(page.locator(`[data-layout=${phone ? 'desktop' : 'mobile'}]`))).toBeHidden();
      await context.close();
    }
    // Other routes get the empty shell (or, /login, their own page), so no landing page flashes before them.
    for (const path of ['/login', '/privacy-policy', '/no/such/page']) {
      const html = await (await request.get(path)).text();
      expect(html, path).toContain(path === '/login' ? '<div id="root" data-prerendered="/login">' : '<div id="root"></div>');
      expect(html, path).not.toContain('What Makes Us Different');
    }
  });

  test('the app takes over the pre-rendered page without moving anything', async ({ page }) => {
    await page.addInitScript(() => {
      const shifts: number[] = [];
      (window as unknown as { shifts: number[] }).shifts = shifts;
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) shifts.push((e as PerformanceEntry & { value: number }).value);
      }).observe({ type: 'layout-shift', buffered: true });
    });
    for (const viewport of [
      { width: 390, height: 844 },
      { width: 1280, height: 800 },
    ]) {
      await page.setViewportSize(viewport);
      await page.goto('/');
      // The app is running: one mockup left, the top bar's active item set.
      await expect(page.getByTestId('app-preview')).toHaveCount(1);
      await expect(page.getByRole('banner').locator('[aria-current="true"]')).toHaveCount(1);
      await page.waitForTimeout(500);
      expect(await page.evaluate(() => (window as unknown as { shifts: number[] }).shifts), `${viewport.width} px`).toEqual([]);
    }
  });

  test('another page opens at its top; going back returns to where the landing page was left', async ({ page }) => {
    await page.goto('/');
    await scrollInstantly(page, 1500);
    await expect.poll(() => page.evaluate(() => Math.round(window.scrollY))).toBe(1500);
    await page.getByRole('banner').getByRole('link', { name: 'Sign Up' }).click();
    await expect(page.getByRole('heading', { name: /Create your account/ })).toBeVisible();
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    await page.goBack();
    await expect(page.locator('#features')).toBeAttached();
    await expect.poll(() => page.evaluate(() => Math.round(window.scrollY))).toBe(1500);
  });

  test('the top bar links: logo home, Login, Sign Up', async ({ page }) => {
    await page.goto('/login');
    const bar = page.getByRole('banner');
    await expect(bar.getByRole('link', { name: 'Login' })).toHaveAttribute('href', '/login');
    await expect(bar.getByRole('link', { name: 'Sign Up' })).toHaveAttribute('href', '/createaccount');
    await bar.getByRole('link', { name: 'Parley' }).click();
    await expect(page).toHaveURL('/');
  });

  test('the intro fades in over 2 s, each part 0.2 s after the one before', async ({ page }) => {
    // Each animation's timing as it starts: on a busy machine the page may load after they ended.
    await page.addInitScript(() => {
      const started: { index: number; duration: number; delay: number }[] = [];
      (window as unknown as { introStarted: typeof started }).introStarted = started;
      const animate = Element.prototype.animate;
      Element.prototype.animate = function (this: Element, ...args: Parameters<Element['animate']>) {
        const animation = animate.apply(this, args);
        if (this.hasAttribute('data-intro')) {
          const timing = animation.effect!.getTiming();
          const index = Array.from(document.querySelectorAll('[data-intro]')).indexOf(this);
          if (!started.some((s) => s.index === index))
            started.push({ index, duration: Math.round(Number(timing.duration)), delay: Math.round(timing.delay ?? 0) });
        }
        return animation;
      };
    });
    await page.goto('/');
    const started = () =>
      page.evaluate(() =>
        (window as unknown as { introStarted: { index: number; duration: number; delay: number }[] }).introStarted.toSorted(
          (a, b) => a.index - b.index,
        ),
      );
    await expect.poll(async () => (await started()).length).toBeGreaterThanOrEqual(3);
    const timings = (await started()).map(({ duration, delay }) => ({ duration, delay }));
    timings.forEach((t, i) => {
      expect(t).toEqual({ duration: INTRO_FADE_IN_S * 1000, delay: Math.round(i * INTRO_FADE_IN_STAGGER_S * 1000) });
    });
    await expect(page.locator('[data-intro]').first()).toHaveCSS('opacity', '1', { timeout: (INTRO_FADE_IN_S + 2) * 1000 });
  });

  test('section buttons scroll smoothly to their section; Features stops 112 px short', async ({ page }) => {
    await page.goto('/');
    await expectActive(page, 'Home');
    for (const { id, label } of [SECTIONS[1], SECTIONS[2], SECTIONS[3], SECTIONS[0]]) {
      const before = Math.round(await page.evaluate(() => window.scrollY));
      const frames = recordScroll(page, 2500);
      await navButton(page, label).click();
      const seen = await frames;
      const after = seen[seen.length - 1]!;
      // Smooth: the position passes through values strictly between start and end (a jump has none;
      // a busy machine samples only a few of its frames).
      const between = seen.filter((y) => (y - before) * (y - after) < 0);
      expect(between.length, `${label}: intermediate scroll positions`).toBeGreaterThan(0);
      await expectAtSection(page, id);
      await expectActive(page, label);
    }
  });

  test('the highlight follows the section in view while the visitor scrolls', async ({ page }) => {
    await page.goto('/');
    await expectActive(page, 'Home');
    for (const { id, label } of [SECTIONS[1], SECTIONS[2]]) {
      const top = await page.evaluate((sid) => document.getElementById(sid)!.getBoundingClientRect().top + window.scrollY, id);
      await scrollInstantly(page, top + 10);
      await expectActive(page, label);
    }
    await scrollInstantly(page, 'bottom');
    await expectActive(page, 'Contact');
    await scrollInstantly(page, 0);
    await expectActive(page, 'Home');
  });

  for (const path of ['/login', '/createaccount']) {
    test(`on ${path} no section is highlighted and a section button opens / first, then scrolls`, async ({ page }) => {
      await page.goto(path);
      await expect(navButton(page, 'Features')).toBeVisible();
      await expect(sectionNav(page).locator('[aria-current="true"]')).toHaveCount(0);
      await navButton(page, 'Features').click();
      await expect(page).toHaveURL('/');
      await expectAtSection(page, 'features');
      await expectActive(page, 'Features');
    });
  }

  test('before any script has run, a section button on /login still opens the landing page at its section', async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto('/login');
    await navButton(page, 'Features').click();
    await expect(page).toHaveURL('/?section=features#features');
    await expect.poll(async () => (await sectionPosition(page, 'features'))?.top ?? Infinity).toBeLessThan(20);
    expect((await sectionPosition(page, 'features'))!.scrollY).toBeGreaterThan(0);
  });

  test('a section request left in the address by the form is carried out and removed', async ({ page }) => {
    await page.goto('/?section=contact#contact');
    await expect(page).toHaveURL('/');
    await expectActive(page, 'Contact');
  });

  test('reduced motion: section buttons jump without animating and the intro is shown at once', async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.goto('/');
    await expect(page.locator('[data-intro]').first()).toHaveCSS('opacity', '1');
    expect(
      await page
        .locator('[data-intro]')
        .first()
        .evaluate((el) => el.getAnimations().length),
    ).toBe(0);
    const frames = recordScroll(page, 800);
    await navButton(page, 'Features').click();
    const seen = await frames;
    const after = seen[seen.length - 1]!;
    expect(seen.filter((y) => y > 0 && y < after)).toEqual([]);
    await expectAtSection(page, 'features');
  });

  test('at 768 px the bar collapses into a menu and the mockup uses its mobile scale', async ({ page }) => {
    await page.setViewportSize({ width: MOBILE_BREAKPOINT_PX, height: 900 });
    await page.goto('/');
    const toggle = page.getByRole('banner').getByRole('button', { name: 'Menu' });
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(navButton(page, 'Features')).toBeHidden();

    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expect(navButton(page, 'Home')).toBeFocused();
    await expect(navButton(page, 'Home')).toHaveAttribute('aria-current', 'true');
    await page.keyboard.press('Escape');
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(toggle).toBeFocused();
    await expect(navButton(page, 'Features')).toBeHidden();

    await toggle.click();
    await navButton(page, 'Features').click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expectAtSection(page, 'features');

    // The mockup: phone frame, and a scale that starts from the mobile value at the viewport's edge.
    const preview = page.getByTestId('app-preview');
    await expect(preview).toHaveAttribute('data-layout', 'mobile');
    const mobileFrom = Number(await preview.getAttribute('data-scale-from'));
    const scaleWhenEntering = async () => {
      await preview.evaluate((el) =>
        window.scrollTo({ top: el.getBoundingClientRect().top + window.scrollY - window.innerHeight, behavior: 'instant' }),
      );
      await page.waitForTimeout(200);
      return preview.evaluate((el) => new DOMMatrix(getComputedStyle(el).transform).a);
    };
    expect(await scaleWhenEntering()).toBeCloseTo(mobileFrom, 2);

    // Wider than the breakpoint: the bar shows its buttons and the mockup its desktop scale.
    await page.setViewportSize({ width: MOBILE_BREAKPOINT_PX + 1, height: 900 });
    await expect(toggle).toBeHidden();
    await expect(navButton(page, 'Features')).toBeVisible();
    await expect(preview).toHaveAttribute('data-layout', 'desktop');
    const desktopFrom = Number(await preview.getAttribute('data-scale-from'));
    expect(desktopFrom).toBeLessThan(mobileFrom);
    expect(await scaleWhenEntering()).toBeCloseTo(desktopFrom, 2);
  });

  test('after a resize, resize handling is blocked for 250 ms and transitions are held', async ({ page }) => {
    // The first resize as the page hears it, from a listener added before any of the app's: at
    // the window, listeners run in the order they were added, capture or not.
    await page.addInitScript(() =>
      window.addEventListener('resize', () => ((window as unknown as { firstResize?: number }).firstResize ??= performance.now())),
    );
    await page.goto('/');
    // The pre-rendered header is replaced by the app's, which is the one that handles resizes.
    await appTookOver(page);
    const header = page.getByRole('banner');
    await expect(header).not.toHaveAttribute('data-resizing');
    // Record the block as the page sees it: the machine may be slower than 250 ms between steps.
    await header.evaluate((el) => {
      const log: Array<{ on: boolean; t: number }> = [];
      (window as unknown as { resizeLog: typeof log }).resizeLog = log;
      new MutationObserver(() => log.push({ on: el.hasAttribute('data-resizing'), t: performance.now() })).observe(el, {
        attributes: true,
        attributeFilter: ['data-resizing'],
      });
    });
    await page.setViewportSize({ width: 700, height: 800 });
    await expect(page.getByRole('banner').getByRole('button', { name: 'Menu' })).toBeVisible();
    const readLog = () => page.evaluate(() => (window as unknown as { resizeLog: Array<{ on: boolean; t: number }> }).resizeLog);
    await expect.poll(async () => (await readLog()).at(-1)?.on, { timeout: 5000 }).toBe(false);
    const entries = await readLog();
    const firstResize = await page.evaluate(() => (window as unknown as { firstResize: number }).firstResize);
    expect(entries[0]!.on).toBe(true);
    // Held from the resize until at least RESIZE_BLOCK_MS later.
    expect(entries[entries.length - 1]!.t - firstResize).toBeGreaterThanOrEqual(RESIZE_BLOCK_MS - 5);
  });

  test('the active-item pill glides for 0.45 s between section buttons', async ({ page }) => {
    await page.goto('/');
    await navButton(page, 'Contact').click();
    await expectActive(page, 'Contact');
    const durations = await page
      .locator('[data-pill]')
      .evaluate((el) => el.getAnimations().map((a) => Number(a.effect?.getTiming().duration)));
    // The glide may have finished already on a fast machine; if it is running, it takes 0.45 s.
    for (const d of durations) expect(d).toBe(DEFAULT_LAYOUT_ANIMATION_S * 1000);
  });

  test('the pill and the highlighted text agree: under the section chosen, before and after the glide', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/');
    // Where the pill is and where the highlighted button is, in page coordinates.
    const where = () =>
      page.evaluate(() => {
        const rect = (el: Element) => {
          const r = el.getBoundingClientRect();
          return { x: Math.round(r.left), w: Math.round(r.width) };
        };
        const nav = document.querySelector('header nav[aria-label="Landing page sections"]')!;
        const active = nav.querySelector('[aria-current="true"]');
        return { pill: rect(nav.querySelector('[data-pill]')!), active: active ? rect(active) : null, label: active?.textContent };
      });
    await expect.poll(async () => (await where()).label).toBe('Home');
    const home = await where();
    expect(home.pill).toEqual(home.active);
    for (const label of ['Our Mission', 'Features', 'Contact', 'Home', 'Features']) {
      // Before: at rest, the pill is under the highlighted text.
      const before = await where();
      expect(Math.abs(before.pill.x - before.active!.x)).toBeLessThanOrEqual(1);
      await navButton(page, label).click();
      await expectActive(page, label);
      // After the 0.45 s glide it sits exactly under the newly highlighted text, whatever passed on the way.
      await page.waitForTimeout(DEFAULT_LAYOUT_ANIMATION_S * 1000 + 300);
      await expect
        .poll(async () => {
          const w = await where();
          return w.label === label && Math.abs(w.pill.x - w.active!.x) <= 1 && Math.abs(w.pill.w - w.active!.w) <= 1;
        })
        .toBe(true);
    }
  });

  test('axe finds no accessibility violations, on desktop and on a phone', async ({ page }) => {
    for (const viewport of [
      { width: 1280, height: 800 },
      { width: 390, height: 844 },
    ]) {
      await page.setViewportSize(viewport);
      await page.goto('/');
      // Bring every scroll-revealed blurb in, so axe checks it at full strength.
      for (let y = 0; y < 6000; y += 300) {
        await scrollInstantly(page, y);
        await page.waitForTimeout(60);
      }
      await page.waitForTimeout(1200);
      await scrollInstantly(page, 0);
      await page.waitForTimeout((INTRO_FADE_IN_S + 1) * 1000);
      const results = await new Axe({ page }).analyze();
      expect(results.violations, JSON.stringify(results.violations, null, 2)).toEqual([]);
    }
  });
});
