/// <reference lib="webworker" />
import { clientsClaim } from 'workbox-core';
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { ExpirationPlugin } from 'workbox-expiration';
import { StaleWhileRevalidate } from 'workbox-strategies';
import { appPath, openFromNotification } from './lib/notificationClick';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<{ url: string; revision: string | null }> };

// The build injects the app shell, every page chunk (landing and legal pages included), styles,
// icons and the manifest here; they are served cache-first by content hash.
// `/?section=…` (a top bar button pressed before any script ran) is the landing page too.
precacheAndRoute(self.__WB_MANIFEST, { ignoreURLParametersMatching: [/^utm_/, /^fbclid$/, /^section$/] });
cleanupOutdatedCaches();

// `/` is the pre-rendered landing page (index.html, served by the precache route above as the
// directory index). Any other navigation to an app route opens the cached empty shell, so the app
// starts offline and the client router decides what to show. Server-owned paths always go to the
// network.
// `/login` has pre-rendered HTML of its own, as on the network.
registerRoute(new NavigationRoute(createHandlerBoundToURL('/login.html'), { allowlist: [/^\/login$/] }));
registerRoute(
  new NavigationRoute(createHandlerBoundToURL('/shell.html'), {
    denylist: [/^\/api(\/|$)/, /^\/socket\.io(\/|$)/, /^\/peerjs(\/|$)/],
  }),
);

// The nudity guard's model (3 MB) and its TensorFlow.js worker are not precached: most visits never
// open a video call. The first call caches them; later calls start from the cache while a newer
// copy (the model files keep their names across builds) is fetched behind.
registerRoute(
  ({ url }) => url.origin === self.location.origin && (url.pathname.startsWith('/nsfw/') || /^\/assets\/nudityWorker-/.test(url.pathname)),
  new StaleWhileRevalidate({ cacheName: 'parley-nudity-guard', plugins: [new ExpirationPlugin({ maxEntries: 12 })] }),
);

// Nothing else is routed: /api answers (personal data) are never cached and go straight to the network.

// The update flow: the page asks a waiting worker to take over after the user chose Reload.
self.addEventListener('message', (event) => {
  if ((event.data as { type?: string } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});

type PushPayload = { title?: unknown; body?: unknown; link?: unknown; tag?: unknown };

// A push from the server (Web Push, decrypted by the browser): shown even when no Parley page is open.
self.addEventListener('push', (event) => {
  let data: PushPayload;
  try {
    data = (event.data?.json() ?? {}) as PushPayload;
  } catch {
    data = { body: event.data?.text() };
  }
  const title = typeof data.title === 'string' ? data.title : 'Parley';
  event.waitUntil(
    self.registration.showNotification(title, {
      body: typeof data.body === 'string' ? data.body : '',
      tag: typeof data.tag === 'string' ? data.tag : undefined,
      icon: '/icons/icon-192.png',
      badge: '/icons/favicon-48.png',
      data: { link: appPath(data.link) },
    }),
  );
});

// A click focuses an open Parley window and takes it to the link, or opens one there.
self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  event.waitUntil(openFromNotification(self.clients, self.location.origin, event.notification.data));
});

// The first install controls open pages at once so the shell works offline after one visit.
clientsClaim();
