import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** Debian's `chromium-headless-shell`. */
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
/** Debian's `chromium`: the whole browser (its notifications, for the Web Push test). */
const FULL_CHROMIUM = '/usr/bin/chromium';

/** Playwright's own Chromium, when it has been downloaded. */
function playwrightChromium() {
  try {
    const { chromium } = require('playwright-core');
    const own = chromium.executablePath();
    return own && existsSync(own) ? own : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Chromium for the browser tests: CHROMIUM_PATH, else Debian's headless shell, else Debian's
 * Chromium, else Playwright's own, downloaded now if need be (which works wherever its download
 * host is reachable). The headless shell is the same engine without the desktop browser around it
 * (what Playwright runs headless tests in by default): it spends about half the CPU per page.
 */
export function chromiumPath() {
  const candidates = [process.env.CHROMIUM_PATH, HEADLESS_SHELL, FULL_CHROMIUM, '/usr/bin/chromium-browser'];
  for (const c of candidates) if (c && existsSync(c)) return c;
  const own = playwrightChromium();
  if (own) return own;
  console.log('No Chromium found; trying Playwright’s own (npx playwright install chromium)…');
  const installed = spawnSync('npx', ['playwright', 'install', 'chromium'], { stdio: 'inherit' });
  const downloaded = installed.status === 0 ? playwrightChromium() : undefined;
  if (downloaded) return downloaded;
  console.error(
    'No Chromium found for the browser tests, and Playwright could not download its own.\n' +
      '  Debian/Ubuntu: sudo apt-get install chromium-headless-shell chromium\n' +
      '  or point CHROMIUM_PATH at a Chrome/Chromium executable.',
  );
  process.exit(1);
}
