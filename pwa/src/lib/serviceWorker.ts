import { Workbox } from 'workbox-window';
import { toast } from './toast';

/**
 * Registers the service worker and runs the update flow: when a new version is installed and
 * waiting, a toast offers Reload, which tells it to take over (skipWaiting) and reloads once it does.
 */
export function registerServiceWorker() {
  if (!('serviceWorker' in navigator)) return;
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
  void wb.register().catch((err: unknown) => console.error('Service worker registration failed', err));
}
