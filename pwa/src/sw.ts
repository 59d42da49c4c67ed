/// <reference lib="webworker" />
import { clientsClaim } from 'workbox-core';
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<{ url: string; revision: string | null }> };

// The build injects the app shell, every page chunk (landing and legal pages included), styles,
// icons and the manifest here; they are served cache-first by content hash.
precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

// `/` is the pre-rendered landing page (index.html, served by the precache route above as the
// directory index). Any other navigation to an app route opens the cached empty shell, so the app
// starts offline and the client router decides what to show. Server-owned paths always go to the
// network.
registerRoute(
  new NavigationRoute(createHandlerBoundToURL('/shell.html'), {
    denylist: [/^\/api(\/|$)/, /^\/socket\.io(\/|$)/, /^\/peerjs(\/|$)/],
  }),
);

// Nothing else is routed: /api answers (personal data) are never cached and go straight to the network.

// The update flow: the page asks a waiting worker to take over after the user chose Reload.
self.addEventListener('message', (event) => {
  if ((event.data as { type?: string } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});

// The first install controls open pages at once so the shell works offline after one visit.
clientsClaim();
