import { useSyncExternalStore } from 'react';

/** Chromium's install prompt event (not in the DOM typings). */
type BeforeInstallPromptEvent = Event & {
  prompt: () => Promise<void>;
  userChoice: Promise<{ outcome: 'accepted' | 'dismissed'; platform: string }>;
};

type InstallState = { canInstall: boolean; installed: boolean };

let deferred: BeforeInstallPromptEvent | null = null;
let state: InstallState = { canInstall: false, installed: false };
const listeners = new Set<() => void>();

function set(next: Partial<InstallState>) {
  state = { ...state, ...next };
  for (const l of listeners) l();
}

/**
 * Starts listening for the browser's install offer. Called once at start-up, before React renders,
 * because beforeinstallprompt may fire before any component mounts.
 */
export function watchInstallPrompt() {
  const standalone = window.matchMedia('(display-mode: standalone)');
  if (standalone.matches) set({ installed: true });
  standalone.addEventListener('change', (e) => set({ installed: e.matches }));
  window.addEventListener('beforeinstallprompt', (e) => {
    // Keep the event so our own Install button can show the browser's dialog later.
    e.preventDefault();
    deferred = e as BeforeInstallPromptEvent;
    set({ canInstall: true });
  });
  window.addEventListener('appinstalled', () => {
    deferred = null;
    set({ canInstall: false, installed: true });
  });
}

/** Shows the browser's install dialog; the offer can be used only once. */
export async function promptInstall(): Promise<'accepted' | 'dismissed' | 'unavailable'> {
  const event = deferred;
  if (!event) return 'unavailable';
  deferred = null;
  set({ canInstall: false });
  await event.prompt();
  const { outcome } = await event.userChoice;
  return outcome;
}

function subscribe(l: () => void) {
  listeners.add(l);
  return () => listeners.delete(l);
}

export function useInstallState(): InstallState {
  return useSyncExternalStore(
    subscribe,
    () => state,
    () => state,
  );
}
