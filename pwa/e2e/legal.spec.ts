import { expect, test } from './fixtures';
import { expectAxeCleanOnBothScreens } from './axe';

test.use({ serviceWorkers: 'block' });

const documents = [
  {
    path: '/privacy-policy',
    title: 'Privacy Policy',
    mustSay: [
      /one-on-one text chats are not stored on our servers/i,
      /Group rooms and direct messages are stored on our servers/i,
      /deleted 90 days after the report/,
      /still picture of the reported person’s video/,
      /Live streams pass through Parley’s server/,
      /each side can see the other’s IP address/,
      /for IPv6, only the \/64 network/,
      /device fingerprint/,
      /known-device cookie/,
      /Push subscriptions/,
      /30 days/,
      /Stripe/,
      /httpOnly/i,
      /18/,
    ],
  },
  { path: '/terms-of-service', title: 'Terms of Service', mustSay: [/18 years old/, /Stripe/, /report/i, /ban/i, /delete your account/i] },
  { path: '/rules', title: 'Community Rules', mustSay: [/18 and over/, /Report/, /Block/, /nudity/i, /permanent ban/i] },
];

for (const doc of documents) {
  test(`${doc.path}: complete text with contents, last-updated date and no axe violations`, async ({ page }) => {
    await page.goto(doc.path);
    const main = page.getByRole('main');
    await expect(main.getByRole('heading', { level: 1, name: doc.title })).toBeVisible();
    await expect(page).toHaveTitle(`${doc.title} · Parley`);
    await expect(main.locator('time')).toHaveAttribute('datetime', '2026-11-28');
    // In the interface language's date format (English here).
    await expect(main.locator('time')).toHaveText('November 28, 2026');
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

    // The relay sentence is read from the server: checked once it has arrived.
    if (doc.path === '/privacy-policy') await expect(page.getByTestId('relay-status')).not.toContainText('Checking');
    await expectAxeCleanOnBothScreens(page);
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

test('the privacy policy says, from this server’s own setting, whether a video call shows your IP address', async ({ page }) => {
  const relay = (await (await page.request.get('/api/rtc/relay')).json()) as { relayOnly: boolean };
  await page.goto('/privacy-policy');
  const status = page.getByTestId('relay-status');
  await expect(status).toContainText('On this server:');
  await expect(status).toContainText(relay.relayOnly ? 'This server has a relay' : 'This server has no relay');
});

test('the Community Rules are readable before signing up, from the landing page and the sign-up form', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('contentinfo').getByRole('link', { name: 'Community Rules' }).click();
  await expect(page).toHaveURL('/rules');
  await expect(page.getByRole('heading', { level: 1, name: 'Community Rules' })).toBeVisible();
  await page.goto('/createaccount');
  await page.getByRole('link', { name: 'Community Rules' }).click();
  await expect(page).toHaveURL('/rules');
  await expect(page.getByRole('main').getByRole('link', { name: 'Terms of Service' }).first()).toBeVisible();
});
