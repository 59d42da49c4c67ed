import { expect, test, type Browser, type Page } from './fixtures';
import { baseURL } from '../playwright.config';
import { startOwnServer } from './ownServer';
import { signedEvent, startStripeStandIn } from '../../api/src/testing/stripeStandIn';
import { postSignup } from './signup';
import { Axe } from './axe';

test.use({ serviceWorkers: 'block' });

const PASSWORD = 'a good long password';
const PHONE = { width: 390, height: 844 };
const uniqueName = (prefix: string) => `${prefix}${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`.slice(0, 20);

async function signedInPage(browser: Browser, url: string, username = uniqueName('payer')): Promise<Page> {
  const context = await browser.newContext({ baseURL: url, serviceWorkers: 'block', viewport: PHONE });
  const page = await context.newPage();
  const res = await postSignup(page.request, {
    data: { username, password: PASSWORD, age: 28, gender: 'female' },
  });
  expect(res.status(), await res.text()).toBe(201);
  return page;
}

async function axeClean(page: Page) {
  const { violations } = await new Axe({ page }).analyze();
  expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

test('without Stripe keys the premium and donation pages say payments are not configured, and offer no button', async ({ browser }) => {
  const page = await signedInPage(browser, baseURL);
  await page.goto('/premium-membership');
  await expect(page.getByRole('heading', { name: 'Premium membership', level: 1 })).toBeVisible();
  await expect(page.getByText('Payments are not configured on this server.')).toBeVisible();
  // The tiers are described, but nothing pretends to charge.
  await expect(page.getByRole('heading', { name: 'Plus' })).toBeVisible();
  await expect(page.getByRole('button', { name: /Choose/ })).toHaveCount(0);
  await axeClean(page);

  await page.goto('/donate');
  await expect(page.getByText('Payments are not configured on this server.')).toBeVisible();
  await expect(page.getByRole('button', { name: /Donate/ })).toHaveCount(0);
  await axeClean(page);
});

test.describe('with Stripe configured (its API played by a local stand-in)', () => {
  const SECRET = 'whsec_e2e_billing';
  let url = '';
  let server: Awaited<ReturnType<typeof startOwnServer>> | undefined;
  let stripe: Awaited<ReturnType<typeof startStripeStandIn>>;

  test.beforeAll(async () => {
    stripe = await startStripeStandIn([
      { lookupKey: 'parley_plus_monthly', amount: 499 },
      { lookupKey: 'parley_plus_yearly', amount: 4_799 },
      { lookupKey: 'parley_pro_monthly', amount: 999 },
      { lookupKey: 'parley_pro_yearly', amount: 9_599 },
    ]);
    server = await startOwnServer(7, { STRIPE_SECRET_KEY: 'sk_test_e2e', STRIPE_WEBHOOK_SECRET: SECRET, STRIPE_API_BASE: stripe.base });
    url = server.url;
  });
  test.afterAll(async () => {
    await server?.stop();
    await stripe?.close();
  });

  test('a free member subscribes: Checkout opens, only the signed webhook makes them Plus, and a perk works', async ({ browser }) => {
    const username = uniqueName('payer');
    const page = await signedInPage(browser, url, username);
    await page.goto('/premium-membership');
    await expect(page.getByRole('button', { name: 'Choose Plus' })).toBeVisible();
    await expect(page.getByText('500 gold with every paid month', { exact: true })).toBeVisible();
    await expect(page.getByText('$4.99 / month')).toBeVisible();
    await page.getByText('Yearly', { exact: true }).click();
    await expect(page.getByText('$47.99 / year')).toBeVisible();
    await axeClean(page);

    // Checkout is Stripe's page; here it only records that the browser went there.
    await page.route('https://checkout.stripe.com/**', (route) =>
      route.fulfill({ contentType: 'text/html', body: '<title>Stripe Checkout</title><h1>Stripe Checkout</h1>' }),
    );
    await page.getByRole('button', { name: 'Choose Plus' }).click();
    await expect(page).toHaveURL(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_\d+/);
    const sessionId = /cs_test_\d+/.exec(page.url())![0];
    const sessionRequest = stripe.requests.findLast((r) => r.path === '/v1/checkout/sessions')!;
    expect(sessionRequest.form['line_items[0][price]']).toBe('price_1_parley_plus_yearly');

    // Stripe sends the member back before (or after) its webhook: the page waits for the webhook.
    await page.goto(`/payment/success?session_id=${sessionId}`);
    await expect(page.getByRole('heading', { name: 'Confirming your payment…' })).toBeVisible();
    const customer = sessionRequest.form.customer!;
    stripe.setSubscription({ id: 'sub_e2e_1', customer, lookupKey: 'parley_plus_yearly', status: 'active' });
    const event = signedEvent(SECRET, 'checkout.session.completed', {
      id: sessionId,
      object: 'checkout.session',
      mode: 'subscription',
      payment_status: 'paid',
      customer,
      subscription: 'sub_e2e_1',
    });
    const hook = await fetch(`${url}/api/billing/webhook`, {
      method: 'POST',
      body: event.payload,
      headers: { 'stripe-signature': event.signature, 'content-type': 'application/json' },
    });
    expect(hook.status).toBe(200);
    await expect(page.getByRole('heading', { name: 'Welcome to Plus' })).toBeVisible();
    await axeClean(page);

    await page.goto('/premium-membership');
    await expect(page.getByRole('heading', { name: 'You are on Plus, billed yearly' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Choose Plus' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Manage subscription' })).toBeVisible();
    // The member's next access token carries the new tier.
    const refreshed = await page.request.get('/api/auth/refresh');
    const { accessToken } = (await refreshed.json()) as { accessToken: string };
    const claims = JSON.parse(Buffer.from(accessToken.split('.')[1]!, 'base64url').toString()) as { premiumUser: string };
    expect(claims.premiumUser).toBe('plus');

    // A perk works: the member picks a name colour, and their profile shows it with the badge.
    await page.getByRole('radio', { name: 'Teal' }).check();
    await expect(page.getByRole('status').filter({ hasText: 'Name colour saved.' })).toBeVisible();
    await axeClean(page);
    await page.goto(`/users/${username}`);
    const heading = page.getByRole('heading', { level: 1, name: new RegExp(username) });
    await expect(heading.getByText('Premium', { exact: true })).toBeVisible();
    await expect(heading.getByText(username, { exact: true })).toHaveCSS('color', 'rgb(15, 118, 110)');
    await axeClean(page);
  });

  test('a donation opens Checkout for the chosen amount and is thanked once confirmed, in public until the donor removes it', async ({
    browser,
  }) => {
    const username = uniqueName('donor');
    const page = await signedInPage(browser, url, username);
    await page.goto('/donate');
    await page.getByText('Other', { exact: true }).click();
    await page.getByLabel('Amount (USD)').fill('12');
    await page.getByText('Thank me in public on my profile').click();
    await page.route('https://checkout.stripe.com/**', (route) =>
      route.fulfill({ contentType: 'text/html', body: '<title>Stripe Checkout</title>' }),
    );
    await page.getByRole('button', { name: 'Donate with Stripe' }).click();
    await expect(page).toHaveURL(/checkout\.stripe\.com/);
    const sessionId = /cs_test_\d+/.exec(page.url())![0];
    expect(stripe.requests.findLast((r) => r.path === '/v1/checkout/sessions')!.form['line_items[0][price_data][unit_amount]']).toBe(
      '1200',
    );
    const event = signedEvent(SECRET, 'checkout.session.completed', {
      id: sessionId,
      object: 'checkout.session',
      mode: 'payment',
      payment_status: 'paid',
      payment_intent: 'pi_e2e',
    });
    await fetch(`${url}/api/billing/webhook`, {
      method: 'POST',
      body: event.payload,
      headers: { 'stripe-signature': event.signature, 'content-type': 'application/json' },
    });
    await page.goto(`/payment/success?session_id=${sessionId}`);
    await expect(page.getByRole('heading', { name: 'Thank you for your donation' })).toBeVisible();
    await expect(page.getByText('We received $12.00.')).toBeVisible();

    const thanks = page.getByText(`${username} donated to keep Parley running. Thank you!`);
    await page.goto(`/users/${username}`);
    await expect(thanks).toBeVisible();
    await page.goto('/settingboard');
    await page.getByRole('button', { name: 'Remove my public thank-you' }).click();
    await expect(page.getByRole('button', { name: 'Remove my public thank-you' })).toHaveCount(0);
    await axeClean(page);
    await page.goto(`/users/${username}`);
    await expect(page.getByRole('heading', { level: 1, name: new RegExp(username) })).toBeVisible();
    await expect(thanks).toHaveCount(0);
  });
});
