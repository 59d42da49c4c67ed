import { useSyncExternalStore } from 'react';

/**
 * A touch screen is the main way of pointing (a phone, a tablet): hints about keys (Esc twice to
 * skip) are left out there and controls sized for a thumb. A keyboard plugged in still works.
 */
const QUERY = '(pointer: coarse)';

const media = () => (typeof window !== 'undefined' && typeof window.matchMedia === 'function' ? window.matchMedia(QUERY) : null);

function subscribe(onChange: () => void): () => void {
  const m = media();
  m?.addEventListener('change', onChange);
  return () => m?.removeEventListener('change', onChange);
}

export function isTouchScreen(): boolean {
  return media()?.matches ?? false;
}

/** Whether the main pointer is a finger, following changes (a tablet docked to a keyboard). */
export function useTouchScreen(): boolean {
  return useSyncExternalStore(subscribe, isTouchScreen, () => false);
}
