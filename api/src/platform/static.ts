import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { Context, Next } from 'koa';
import send from 'koa-send';

/** Folders of the build that hold only files: a missing path there is a missing file. */
const FILE_FOLDERS = /^\/(assets|icons|images|screenshots|mediapipe|nsfw)\//;
/** Endings of the files a build serves; any other dotted path (`/users/jane.doe`) is an app route. */
const FILE_ENDINGS = new Set([
  '.js',
  '.mjs',
  '.css',
  '.map',
  '.json',
  '.webmanifest',
  '.html',
  '.txt',
  '.xml',
  '.png',
  '.jpg',
  '.jpeg',
  '.gif',
  '.webp',
  '.avif',
  '.svg',
  '.ico',
  '.woff',
  '.woff2',
  '.ttf',
  '.wasm',
  '.tflite',
  '.binarypb',
  '.data',
  '.bin',
  '.br',
  '.gz',
]);

/** A request for a file of the build (answered 404 when missing), rather than for a page of the app. */
export function asksForFile(urlPath: string): boolean {
  if (FILE_FOLDERS.test(urlPath)) return true;
  if (urlPath.endsWith('/')) return false;
  return FILE_ENDINGS.has(path.extname(urlPath).toLowerCase());
}

/** App routes the build renders to HTML of their own, besides `/` (index.html). */
const PRERENDERED: Record<string, string> = { '/login': '/login.html' };

/**
 * Serves the built PWA. Hashed assets are immutable; the HTML pages, the service worker and the
 * manifest are revalidated on every load so an update reaches users. `/` is index.html, the
 * pre-rendered landing page, `/login` login.html; other app routes fall back to shell.html, the page with an empty root
 * (index.html in a build without it), and the client router decides what to show, including its
 * own 404 page. A path with a trailing slash (`/login/`) or a dot that is no file ending
 * (`/users/jane.doe`) is a page too: only paths that ask for a file (asksForFile) answer 404.
 */
export function servePwa(root: string) {
  const noCache = new Set([
    '/index.html',
    '/shell.html',
    ...Object.values(PRERENDERED),
    '/sw.js',
    '/manifest.webmanifest',
    '/registerSW.js',
  ]);
  return async (ctx: Context, next: Next) => {
    // Its form sent before any script ran (the fields go nowhere): back to the page, which then works.
    if (ctx.method === 'POST' && PRERENDERED[ctx.path]) {
      ctx.status = 303;
      return ctx.redirect(ctx.path);
    }
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    if (ctx.path.startsWith('/api/') || ctx.path === '/api') return next();
    let file = ctx.path;
    if (file.endsWith('/')) file += 'index.html';
    // A page the build pre-rendered (vite-plugin-prerender.ts) is answered with its own HTML.
    const prerendered = PRERENDERED[ctx.path];
    if (prerendered && (await isFile(path.join(root, prerendered)))) file = prerendered;
    const exists = await isFile(path.join(root, path.normalize(file)));
    if (!exists) {
      // Asks for a file of the build that is not there: a real 404, not the app shell.
      if (asksForFile(ctx.path)) return next();
      file = (await isFile(path.join(root, 'shell.html'))) ? '/shell.html' : '/index.html';
    }
    const immutable = file.startsWith('/assets/');
    await send(ctx, file, {
      root,
      hidden: false,
      index: false,
      maxage: 0,
      immutable: false,
      setHeaders(res) {
        // The build ships .br/.gz copies that koa-send picks by Accept-Encoding: caches must key on it.
        res.setHeader('Vary', 'Accept-Encoding');
        if (immutable) res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
        else if (noCache.has(file)) res.setHeader('Cache-Control', 'no-cache');
        else res.setHeader('Cache-Control', 'public, max-age=3600');
      },
    });
  };
}

async function isFile(p: string): Promise<boolean> {
  try {
    return (await stat(p)).isFile();
  } catch {
    return false;
  }
}
