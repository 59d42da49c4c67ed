import { i18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { toast } from './toast';

/**
 * Registers the service worker once the page has loaded, and runs the update flow: when a new
 * version is installed and waiting, a toast offers Reload, which tells it to take over
 * (skipWaiting) and reloads once it controls the page.
 */
export function registerServiceWorker() {
  if (!('serviceWorker' in navigator)) return;
  // A notification was clicked: the worker asks this window to open its link in the app.
  navigator.serviceWorker.addEventListener('message', (event) => {
    const data = event.data as { type?: string; link?: unknown } | null;
    if (data?.type !== 'NAVIGATE' || typeof data.link !== 'string' || !/^\/(?![/\\])/.test(data.link)) return;
    window.history.pushState(null, '', data.link);
    window.dispatchEvent(new PopStateEvent('popstate'));
  });
  const start = async () => {
    const { Workbox } = await import('workbox-window');
    const wb = new Workbox('/sw.js', { scope: '/' });
    wb.addEventListener('waiting', () => {
      toast({
        title: i18n._(msg`A new version of Parley is ready`),
        description: i18n._(msg`Reload to start using it.`),
        // Waits for the user instead of the usual 5 s: missing it would keep the old version running.
        duration: Number.POSITIVE_INFINITY,
        action: {
          label: i18n._(msg`Reload`),
          onClick: () => {
            wb.addEventListener('controlling', () => window.location.reload());
            wb.messageSkipWaiting();
          },
        },
      });
    });
    await wb.register();
  };
  const run = () => void start().catch((err: unknown) => console.error('Service worker registration failed', err));
  if (document.readyState === 'complete') run();
  else window.addEventListener('load', run, { once: true });
}

/** How long Reload waits for a newer worker to install, then to take over, before reloading anyway. */
const UPDATE_WAIT_MS = 30_000;

type UpdateDeps = {
  /** The page's service workers; undefined where the browser has none. */
  container?: ServiceWorkerContainer | undefined;
  reload?: () => void;
  waitMs?: number;
};

/**
 * Reloads into the newest build. Under a service worker a plain reload would open the old app
 * again from its precache, so a waiting worker takes over first; with none waiting, the server is
 * asked for a newer one and Reload waits for it to install.
 */
export async function reloadToUpdate({
  container = typeof navigator !== 'undefined' && 'serviceWorker' in navigator ? navigator.serviceWorker : undefined,
  reload = () => window.location.reload(),
  waitMs = UPDATE_WAIT_MS,
}: UpdateDeps = {}): Promise<void> {
  try {
    const registration = await container?.getRegistration();
    const worker = registration ? await newerWorker(registration, waitMs) : null;
    if (container?.controller && worker) {
      await new Promise<void>((resolve) => {
        container.addEventListener('controllerchange', () => resolve(), { once: true });
        setTimeout(resolve, waitMs);
        worker.postMessage({ type: 'SKIP_WAITING' });
      });
    }
  } catch (err) {
    // Offline or the check failed: the reload still gets whatever the network or the cache has.
    console.error('Looking for a newer version failed', err);
  }
  reload();
}

/** The registration's worker that is installed and waiting, after asking the server for one; null if there is none. */
async function newerWorker(registration: ServiceWorkerRegistration, waitMs: number): Promise<ServiceWorker | null> {
  if (registration.waiting) return registration.waiting;
  if (!registration.installing) await registration.update();
  const worker = registration.installing ?? registration.waiting;
  if (!worker) return null;
  return new Promise((resolve) => {
    const settle = () => {
      if (worker.state === 'redundant') resolve(null);
      else if (worker.state !== 'installing' && worker.state !== 'parsed') resolve(worker);
      else return;
      worker.removeEventListener('statechange', settle);
    };
    worker.addEventListener('statechange', settle);
    setTimeout(() => resolve(null), waitMs);
    settle();
  });
}
