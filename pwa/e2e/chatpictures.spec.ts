import sharp from 'sharp';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { conversation, newPage, signUp, uniqueName } from './people';
import { Axe } from './axe';

test.use({ serviceWorkers: 'block' });

const PHONE = { width: 390, height: 844 };

const photo = () =>
  sharp({ create: { width: 640, height: 480, channels: 3, background: { r: 40, g: 160, b: 90 } } })
    .jpeg()
    .toBuffer();

async function startChat(page: Page) {
  await page.goto('/textchat');
  await expect(page.getByRole('heading', { name: 'Text chat', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Start', exact: true }).click();
}

const allowSwitch = (page: Page) => page.getByRole('switch', { name: 'Allow pictures in this chat' });
const consentNote = (page: Page) => page.getByTestId('pictures-consent');

async function expectNoAxeViolations(page: Page) {
  const axe = await new Axe({ page }).analyze();
  expect(axe.violations, JSON.stringify(axe.violations, null, 2)).toEqual([]);
}

test('two strangers both allow pictures in their text chat; one sends a picture, the other sees it blurred, taps, sees it', async ({
  browser,
}) => {
  // The nudity guard's model loads on the phone before it judges the picture.
  test.setTimeout(180_000);
  const [a, b] = await Promise.all([newPage(browser, PHONE), newPage(browser, PHONE)]);
  const ana = await signUp(a, uniqueName('ana'));
  const bo = await signUp(b, uniqueName('bo'));
  await startChat(a);
  await startChat(b);
  await expect(a.getByRole('region', { name: 'Your chat partner' }).getByRole('heading', { name: bo.username })).toBeVisible();
  await expect(b.getByRole('region', { name: 'Your chat partner' }).getByRole('heading', { name: ana.username })).toBeVisible();

  // Nobody allows pictures in a new chat: the picture button is off, and says why.
  await expect(allowSwitch(a)).not.toBeChecked();
  await expect(allowSwitch(b)).not.toBeChecked();
  await expect(a.getByTestId('picture-input')).toBeDisabled();
  await expect(a.getByTestId('picture-input')).toHaveAccessibleDescription('Pictures can be sent once you both allow them in this chat.');

  // Ana allows them from the keyboard: Bo is told she would like to share pictures; one side is not enough.
  await allowSwitch(a).focus();
  await a.keyboard.press('Space');
  await expect(allowSwitch(a)).toBeChecked();
  await expect(consentNote(a)).toContainText(`Waiting for ${bo.username} to allow pictures too.`);
  await expect(consentNote(b)).toContainText(`${ana.username} would like to share pictures.`);
  await expect(a.getByTestId('picture-input')).toBeDisabled();
  await expect(b.getByTestId('picture-input')).toBeDisabled();
  await expectNoAxeViolations(b);

  // Bo allows them too (a tap on the phone): both picture buttons work.
  await allowSwitch(b).click();
  await expect(allowSwitch(b)).toBeChecked();
  await expect(a.getByTestId('picture-input')).toBeEnabled();
  await expect(b.getByTestId('picture-input')).toBeEnabled();
  await expect(consentNote(b)).toContainText(`Pictures from ${ana.username} stay blurred until you tap them.`);

  await a.getByTestId('picture-input').setInputFiles({ name: 'park.jpg', mimeType: 'image/jpeg', buffer: await photo() });
  await expect(conversation(a).getByRole('img', { name: 'Your picture' })).toBeVisible();
  // A stranger's picture: blurred until tapped, and judged on Bo's phone by the nudity guard.
  const shown = conversation(b).getByTestId('message-picture');
  await expect(shown).toHaveAttribute('data-guarded', 'true');
  await expect(shown).toContainText('Tap to show');
  await expect(shown).toHaveAttribute('data-verdict', 'clear', { timeout: 90_000 });
  await expectNoAxeViolations(b);
  await b.getByRole('button', { name: `Show the picture from ${ana.username}` }).click();
  await expect(shown).toHaveAttribute('data-guarded', 'false');
  const picture = conversation(b).getByRole('img', { name: `Picture from ${ana.username}` });
  await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  await b.getByRole('button', { name: `Open the picture from ${ana.username} full screen` }).click();
  const dialog = b.getByRole('dialog', { name: `Picture from ${ana.username}` });
  await expect.poll(() => dialog.getByTestId('picture-full').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(640);
  await b.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  // Bo withdraws: Ana's picture button is off again at once.
  await allowSwitch(b).click();
  await expect(allowSwitch(b)).not.toBeChecked();
  await expect(a.getByTestId('picture-input')).toBeDisabled();
  await expect(consentNote(a)).toContainText(`Waiting for ${bo.username} to allow pictures too.`);
  await expectNoAxeViolations(a);
});
