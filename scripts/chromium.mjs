import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';

/** Chromium for Playwright and Lighthouse: CHROMIUM_PATH, else Debian's, else Playwright's own. */
export function chromiumPath() {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'];
  for (const c of candidates) if (c && existsSync(c)) return c;
  try {
    const require = createRequire(import.meta.url);
    const { chromium } = require('playwright-core');
    const own = chromium.executablePath();
    if (own && existsSync(own)) return own;
  } catch {
    /* fall through to the message */
  }
  console.error(
    'No Chromium found for the browser tests.\n' +
      '  Debian/Ubuntu: sudo apt-get install chromium\n' +
      '  or point CHROMIUM_PATH at a Chrome/Chromium executable.',
  );
  process.exit(1);
}
