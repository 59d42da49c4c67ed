import { useSyncExternalStore } from 'react';
import { TOAST_LIMIT, TOAST_REMOVE_DELAY_MS } from './uiConstants.ts';

/** A toast as the spec describes it: id, title, description, action, open. */
export type ToastAction = { label: string; onClick: () => void };
export type ToastEntry = {
  id: string;
  title?: string;
  description?: string;
  action?: ToastAction;
  open: boolean;
  /** Overrides the 5000 ms default, e.g. an update prompt that waits for the user. */
  duration?: number;
  variant?: 'default' | 'error';
};
export type ToastInput = Omit<ToastEntry, 'id' | 'open'>;

// One module-level list shared by every caller, so any feature can raise a toast without props.
let toasts: ToastEntry[] = [];
const listeners = new Set<() => void>();
const removalTimers = new Map<string, ReturnType<typeof setTimeout>>();
let counter = 0;

function emit(next: ToastEntry[]) {
  toasts = next;
  for (const l of listeners) l();
}

function scheduleRemoval(id: string) {
  if (removalTimers.has(id)) return;
  removalTimers.set(
    id,
    setTimeout(() => {
      removalTimers.delete(id);
      emit(toasts.filter((t) => t.id !== id));
    }, TOAST_REMOVE_DELAY_MS),
  );
}

/** Closes one toast (or all): it is marked closed at once and dropped after the removal delay. */
export function dismissToast(id?: string) {
  for (const t of toasts) if (id === undefined || t.id === id) scheduleRemoval(t.id);
  emit(toasts.map((t) => (id === undefined || t.id === id ? { ...t, open: false } : t)));
}

/** Shows a toast; only TOAST_LIMIT are kept, so a new one replaces the old. */
export function toast(input: ToastInput) {
  counter = (counter + 1) % Number.MAX_SAFE_INTEGER;
  const id = String(counter);
  emit([{ ...input, id, open: true }, ...toasts].slice(0, TOAST_LIMIT));
  return {
    id,
    dismiss: () => dismissToast(id),
    update: (patch: ToastInput) => emit(toasts.map((t) => (t.id === id ? { ...t, ...patch } : t))),
  };
}

/** The toasts currently held (the hook's snapshot). */
export function peekToasts(): readonly ToastEntry[] {
  return toasts;
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useToast() {
  const list = useSyncExternalStore(subscribe, peekToasts, peekToasts);
  return { toasts: list, toast, dismiss: dismissToast };
}
