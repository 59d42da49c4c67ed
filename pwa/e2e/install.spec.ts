import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { REALTIME_PROTOCOL } from '@parley/contract/protocol';
import { chromium, expect, test, type Page } from './fixtures';
import { baseURL, chromiumArgs, chromiumExecutable } from '../playwright.config';
import { postSignup } from './signup';
import { Axe } from './axe';

test.use({ serviceWorkers: 'allow' });

async function waitForServiceWorkerControl(page: Page) {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
}

/** PNG width and height from the IHDR chunk. */
function pngSize(bytes: Buffer) {
  expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
  return `${bytes.readUInt32BE(16)}x${bytes.readUInt32BE(20)}`;
}

test("Chromium's own installability check reports no error", async () => {
  // Chromium never offers installation in incognito, and Playwright's usual contexts are incognito.
  const profile = mkdtempSync(path.join(os.tmpdir(), 'parley-install-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumExecutable,
    args: chromiumArgs,
    baseURL,
  });
  const page = context.pages()[0] ?? (await context.newPage());
  await page.goto('/');
  await waitForServiceWorkerControl(page);
  const cdp = await context.newCDPSession(page);
  const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
  expect(installabilityErrors).toEqual([]);
  const { url, errors, data } = await cdp.send('Page.getAppManifest');
  expect(new URL(url).pathname).toBe('/manifest.webmanifest');
  expect(errors).toEqual([]);
  expect(JSON.parse(data!)).toMatchObject({ name: 'Parley', start_url: '/dashboard', scope: '/', display: 'standalone' });
  await context.close();
  rmSync(profile, { recursive: true, force: true });
});

test('the manifest: icons, screenshots and shortcuts exist with the sizes it claims', async ({ page, request }) => {
  await page.goto('/');
  const href = await page.locator('link[rel="manifest"]').getAttribute('href');
  const res = await request.get(href!);
  expect(res.status()).toBe(200);
  expect(res.headers()['cache-control']).toBe('no-cache');
  const manifest = await res.json();
  const purposes = manifest.icons.map((i: { sizes: string; purpose: string }) => `${i.sizes} ${i.purpose}`);
  expect(purposes).toEqual(expect.arrayContaining(['192x192 any', '512x512 any', '512x512 maskable']));
  for (const image of [...manifest.icons, ...manifest.screenshots]) {
    const file = await request.get(image.src);
    expect(file.status(), image.src).toBe(200);
    expect(pngSize(await file.body()), image.src).toBe(image.sizes);
  }
  expect(manifest.screenshots.map((s: { form_factor: string }) => s.form_factor).sort()).toEqual(['narrow', 'wide']);
  expect(manifest.shortcuts.map((s: { url: string }) => s.url)).toEqual(['/textchat', '/videochat']);
  // iOS reads none of this from the manifest.
  const touchIcon = await page.locator('link[rel="apple-touch-icon"]').getAttribute('href');
  expect(pngSize(await (await request.get(touchIcon!)).body())).toBe('180x180');
  await expect(page.locator('meta[name="apple-mobile-web-app-capable"]')).toHaveAttribute('content', 'yes');
});

test('the Install button appears when the browser offers installation and goes once installed', async ({ page }) => {
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { name: 'Welcome to Parley' })).toBeVisible();
  const install = page.getByRole('button', { name: 'Install app' });
  await expect(install).toHaveCount(0);

  // The event Chromium fires when its install criteria are met (headless never shows its own UI).
  await page.evaluate(() => {
    const offer = Object.assign(new Event('beforeinstallprompt', { cancelable: true }), {
      prompt: async () => {
        (window as unknown as { promptShown: boolean }).promptShown = true;
      },
      userChoice: Promise.resolve({ outcome: 'accepted', platform: 'web' }),
    });
    window.dispatchEvent(offer);
  });
  await expect(install).toBeVisible();
  await install.click();
  expect(await page.evaluate(() => (window as unknown as { promptShown?: boolean }).promptShown)).toBe(true);
  await page.evaluate(() => window.dispatchEvent(new Event('appinstalled')));
  await expect(install).toHaveCount(0);
});

/**
 * The build's service worker as a release: `release()` changes sw.js (the server reads the build
 * folder on every request, so that is a new version, with the precompressed copies it prefers)
 * and answers the stamp it carries; `restore()` puts the build back.
 */
function serviceWorkerRelease() {
  const dist = process.env.PWA_DIST ? path.resolve(process.env.PWA_DIST) : fileURLToPath(new URL('../dist', import.meta.url));
  const swPath = path.join(dist, 'sw.js');
  const copies = ['sw.js', 'sw.js.br', 'sw.js.gz'].map((f) => path.join(dist, f)).filter((f) => existsSync(f));
  const originals = new Map(copies.map((f) => [f, readFileSync(f)]));
  const original = readFileSync(swPath, 'utf8');
  return {
    /** Releases a new sw.js; answers its stamp (`self.parleyRelease` in the worker). */
    release(): string {
      const stamp = String(Date.now());
      const source = `${original}\nself.parleyRelease = '${stamp}';\n`;
      writeFileSync(swPath, source);
      if (originals.has(`${swPath}.br`)) writeFileSync(`${swPath}.br`, brotliCompressSync(source));
      if (originals.has(`${swPath}.gz`)) writeFileSync(`${swPath}.gz`, gzipSync(source));
      return stamp;
    },
    restore() {
      for (const [file, bytes] of originals) writeFileSync(file, bytes);
    },
  };
}

test('a new version waits until the user picks Reload in the toast, then takes over', async ({ page }) => {
  const sw = serviceWorkerRelease();
  try {
    await page.goto('/dashboard');
    await waitForServiceWorkerControl(page);
    const firstWorker = await page.evaluate(() => navigator.serviceWorker.controller!.scriptURL);
    await page.evaluate(() => ((window as unknown as { beforeUpdate: boolean }).beforeUpdate = true));

    sw.release();
    await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())!.update());

    const reload = page.getByRole('button', { name: 'Reload' });
    await expect(page.getByText('A new version of Parley is ready', { exact: true })).toBeVisible();
    // Nothing changes until the user agrees: the new worker waits.
    expect(await page.evaluate(async () => !!(await navigator.serviceWorker.getRegistration())!.waiting)).toBe(true);

    await Promise.all([page.waitForEvent('load'), reload.click()]);
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    expect(await page.evaluate(() => (window as unknown as { beforeUpdate?: boolean }).beforeUpdate)).toBeUndefined();
    expect(await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())!.waiting)).toBeNull();
    expect(await page.evaluate(() => navigator.serviceWorker.controller!.scriptURL)).toBe(firstWorker);
  } finally {
    sw.restore();
  }
});

test('a build older than the server’s protocol is refused, says so, and Reload brings the new version in', async ({ page }) => {
  const sw = serviceWorkerRelease();
  // The page's socket.io handshake names an older protocol, as an installed copy of an old build does.
  let oldBuild = true;
  const handshakes: string[] = [];
  await page.routeWebSocket(/\/socket\.io\//, (ws) => {
    const server = ws.connectToServer();
    ws.onMessage((m) => {
      if (typeof m === 'string' && m.startsWith('40')) {
        if (oldBuild) m = m.replace(`"protocol":${REALTIME_PROTOCOL}`, `"protocol":${REALTIME_PROTOCOL - 1}`);
        handshakes.push(m.replace(/"token":"[^"]*"/, '"token":"…"'));
      }
      server.send(m);
    });
  });
  try {
    const res = await postSignup(page.request, {
      data: { username: `old${Date.now().toString(36)}`.slice(0, 20), password: 'a good long password', age: 27, gender: 'other' },
    });
    expect(res.status(), await res.text()).toBe(201);
    await page.goto('/dashboard');
    await waitForServiceWorkerControl(page);
    await page.evaluate(() => ((window as unknown as { beforeUpdate: boolean }).beforeUpdate = true));

    const banner = page.getByRole('region', { name: 'Parley has been updated. Reload to get the new version.' });
    await expect(banner).toBeVisible();
    await expect(page.getByRole('alert').filter({ hasText: 'Parley has been updated.' })).toBeVisible();
    // Refused for good: no retry, no "Connection lost" toast with a Reconnect that cannot help.
    await page.waitForTimeout(1500);
    expect(handshakes).toEqual([expect.stringContaining(`"protocol":${REALTIME_PROTOCOL - 1}`)]);
    await expect(page.getByText('Connection lost')).toHaveCount(0);
    const axe = await new Axe({ page }).include('section[aria-labelledby]').analyze();
    expect(axe.violations, JSON.stringify(axe.violations, null, 2)).toEqual([]);

    // The server has the new version; nothing asked the browser to look for it yet.
    const stamp = sw.release();
    oldBuild = false;
    await Promise.all([page.waitForEvent('load', { timeout: 45_000 }), banner.getByRole('button', { name: 'Reload' }).click()]);
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    expect(await page.evaluate(() => (window as unknown as { beforeUpdate?: boolean }).beforeUpdate)).toBeUndefined();
    // Reload found the new worker, waited for it to install and let it take over before reloading:
    // the worker in charge is the released one (a plain reload keeps the old one, whose cache
    // holds the old build).
    const workers = await Promise.all(
      page
        .context()
        .serviceWorkers()
        .map((w) =>
          w.evaluate(() => {
            const scope = self as unknown as { parleyRelease?: string; serviceWorker?: { state: string } };
            return { release: scope.parleyRelease, state: scope.serviceWorker?.state };
          }),
        ),
    );
    expect(workers.filter((w) => w.state === 'activated').map((w) => w.release)).toEqual([stamp]);
    expect(await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())!.waiting)).toBeNull();
    await expect(page.getByText('A new version of Parley is ready', { exact: true })).toHaveCount(0);
    // The new build speaks the server's protocol: connected, no banner.
    await expect.poll(() => handshakes.length).toBe(2);
    expect(handshakes[1]).toContain(`"protocol":${REALTIME_PROTOCOL}`);
    await expect(page.getByRole('heading', { name: /^Welcome (back|to Parley), / })).toBeVisible();
    await expect(banner).toHaveCount(0);
  } finally {
    sw.restore();
  }
});
