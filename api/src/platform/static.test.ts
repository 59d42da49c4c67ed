import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/server.ts';

describe('serving the built PWA', () => {
  let server: TestServer;
  let dist: string;
  const script = 'console.log("parley");'.repeat(200);

  beforeAll(async () => {
    dist = await mkdtemp(path.join(os.tmpdir(), 'parley-dist-'));
    await mkdir(path.join(dist, 'assets'));
    await writeFile(path.join(dist, 'index.html'), '<!doctype html><title>Parley</title>');
    await writeFile(path.join(dist, 'assets/app.js'), script);
    await writeFile(path.join(dist, 'assets/app.js.br'), brotliCompressSync(script));
    await writeFile(path.join(dist, 'assets/app.js.gz'), gzipSync(script));
    server = await startTestServer({ SERVE_PWA: 'true', PWA_DIST: dist });
  });
  afterAll(async () => {
    await server.close();
    await rm(dist, { recursive: true, force: true });
  });

  it('sends the precompressed copy the browser accepts, keyed on Accept-Encoding for caches', async () => {
    for (const [accept, encoding] of [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
    ] as const) {
      const res = await server.api('/assets/app.js', { headers: { 'accept-encoding': accept } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-encoding')).toBe(encoding);
      expect(res.headers.get('content-type')).toMatch(/^text\/javascript/);
      expect(res.headers.get('vary')).toMatch(/Accept-Encoding/i);
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(await res.text()).toBe(script); // fetch decodes: the same file either way
    }
  });

  it('sends the file as is to a client that accepts no encoding', async () => {
    const res = await server.api('/assets/app.js', { headers: { 'accept-encoding': 'identity' } });
    expect(res.headers.get('content-encoding')).toBeNull();
    expect(Number(res.headers.get('content-length'))).toBe(Buffer.byteLength(script));
  });

  it('answers app routes with the shell and missing files with 404', async () => {
    const page = await server.api('/privacy-policy');
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<title>Parley</title>');
    expect((await server.api('/assets/missing.js')).status).toBe(404);
  });

  it('answers a page path with a trailing slash or a dot with the app, a missing file of the build with 404', async () => {
    const shell = '<!doctype html><title>Parley</title><div id="root"></div>';
    await writeFile(path.join(dist, 'shell.html'), shell);
    try {
      // A first visit, before the service worker: the app answers, and its router shows the page or its own 404.
      for (const route of ['/login/', '/dashboard/', '/createaccount/', '/users/jane.doe', '/no.such.page/', '/textchat/.']) {
        const res = await server.api(route);
        expect(res.status, route).toBe(200);
        expect(await res.text(), route).toBe(shell);
      }
      for (const file of [
        '/assets/missing.js',
        '/icons/none.png',
        '/robots2.txt',
        '/mediapipe/model',
        '/nsfw/model.json',
        '/nsfw/group1-shard1of1.bin',
        '/styles.css',
        '/x/app.js.map',
      ]) {
        expect((await server.api(file)).status, file).toBe(404);
      }
    } finally {
      await rm(path.join(dist, 'shell.html'));
    }
  });

  it('answers / with the pre-rendered landing page and other app routes with the empty shell when the build has one', async () => {
    const shell = '<!doctype html><title>Parley</title><div id="root"></div>';
    await writeFile(path.join(dist, 'shell.html'), shell);
    try {
      for (const route of ['/privacy-policy', '/login', '/no/such/page']) {
        const res = await server.api(route);
        expect(res.status).toBe(200);
        expect(res.headers.get('cache-control')).toBe('no-cache');
        expect(await res.text()).toBe(shell);
      }
      const landing = await server.api('/');
      expect(landing.headers.get('cache-control')).toBe('no-cache');
      expect(await landing.text()).toBe('<!doctype html><title>Parley</title>');
    } finally {
      await rm(path.join(dist, 'shell.html'));
    }
  });

  it('answers /login with its pre-rendered page when the build has one, revalidated like the other pages', async () => {
    const shell = '<!doctype html><title>Parley</title><div id="root"></div>';
    const login = '<!doctype html><title>Parley</title><div id="root" data-prerendered="/login"><h1>Login</h1></div>';
    await writeFile(path.join(dist, 'shell.html'), shell);
    await writeFile(path.join(dist, 'login.html'), login);
    try {
      const res = await server.api('/login?returnTo=%2Fstore');
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(await res.text()).toBe(login);
      // Only that route: the others, and /login/ (a page path the router normalises), get the shell.
      for (const route of ['/login/', '/loginx', '/createaccount']) expect(await (await server.api(route)).text(), route).toBe(shell);
      // Its form sent before the app loaded: back to the page (the fields go nowhere), not a 404.
      const posted = await server.api('/login', {
        method: 'POST',
        body: 'username=a&password=b',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(posted.status).toBe(303);
      expect(posted.headers.get('location')).toBe('/login');
    } finally {
      await rm(path.join(dist, 'login.html'));
      await rm(path.join(dist, 'shell.html'));
    }
  });
});
