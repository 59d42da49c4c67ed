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
        title: 'A new version of Parley is ready',
        description: 'Reload to start using it.',
        // Waits for the user instead of the usual 5 s: missing it would keep the old version running.
        duration: Number.POSITIVE_INFINITY,
        action: {
          label: 'Reload',
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
