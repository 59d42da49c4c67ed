import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from './fixtures';
import { postSignup } from './signup';

test.use({ serviceWorkers: 'block' });

const uniqueName = (prefix: string) => `${prefix}${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`.slice(0, 20);

/** Rules are a signed-in route (spec 2): sign up through the API; the session cookie does the rest. */
async function signIn(page: Page) {
  const res = await postSignup(page.request, {
    data: { username: uniqueName('rules'), password: 'a good long password', age: 30, gender: 'other' },
  });
  expect(res.status(), await res.text()).toBe(201);
}

const documents = [
  {
    path: '/privacy-policy',
    title: 'Privacy Policy',
    mustSay: [/not stored on our servers/i, /30 days/, /Stripe/, /httpOnly/i, /18/, /delet/i],
  },
  { path: '/terms-of-service', title: 'Terms of Service', mustSay: [/18 years old/, /Stripe/, /report/i, /ban/i, /delete your account/i] },
  { path: '/rules', title: 'Community Rules', mustSay: [/18 and over/, /Report/, /Block/, /nudity/i, /permanent ban/i] },
];

for (const doc of documents) {
  test(`${doc.path}: complete text with contents, last-updated date and no axe violations`, async ({ page }) => {
    if (doc.path === '/rules') await signIn(page);
    await page.goto(doc.path);
    const main = page.getByRole('main');
    await expect(main.getByRole('heading', { level: 1, name: doc.title })).toBeVisible();
    await expect(page).toHaveTitle(`${doc.title} · Parley`);
    await expect(main.locator('time')).toHaveAttribute('datetime', '2026-11-22');
    await expect(main.locator('time')).toHaveText('22 November 2026');
    const text = await main.innerText();
    for (const phrase of doc.mustSay) expect(text).toMatch(phrase);

    // Every contents entry leads to its section.
    const contents = main.getByRole('navigation', { name: 'Contents' }).getByRole('link');
    const count = await contents.count();
    expect(count).toBeGreaterThanOrEqual(6);
    const last = contents.nth(count - 1);
    const target = (await last.getAttribute('href'))!;
    await last.click();
    await expect(page.locator(target)).toBeInViewport();

    const results = await new AxeBuilder({ page }).analyze();
    expect(results.violations, JSON.stringify(results.violations, null, 2)).toEqual([]);
  });
}

test('the landing footer links to every legal text', async ({ page }) => {
  await page.goto('/');
  const footer = page.getByRole('contentinfo');
  await footer.getByRole('link', { name: 'Terms of Service' }).click();
  await expect(page).toHaveURL('/terms-of-service');
  await page.getByRole('main').getByRole('link', { name: 'Privacy Policy' }).first().click();
  await expect(page).toHaveURL('/privacy-policy');
});
