import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

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
 * Chromium for Playwright and Lighthouse: CHROMIUM_PATH, else Debian's, else Playwright's own,
 * downloaded now if need be (which works wherever its download host is reachable).
 */
export function chromiumPath() {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'];
  for (const c of candidates) if (c && existsSync(c)) return c;
  const own = playwrightChromium();
  if (own) return own;
  console.log('No Chromium found; trying Playwright’s own (npx playwright install chromium)…');
  const installed = spawnSync('npx', ['playwright', 'install', 'chromium'], { stdio: 'inherit' });
  const downloaded = installed.status === 0 ? playwrightChromium() : undefined;
  if (downloaded) return downloaded;
  console.error(
    'No Chromium found for the browser tests, and Playwright could not download its own.\n' +
      '  Debian/Ubuntu: sudo apt-get install chromium\n' +
      '  or point CHROMIUM_PATH at a Chrome/Chromium executable.',
  );
  process.exit(1);
}
