import { useSyncExternalStore } from 'react';

/** What a confirmation asks; with `reason`, the person also writes why (a prompt with a reason). */
export type AskRequest = {
  title: string;
  description?: string;
  confirmLabel: string;
  /** A destructive action: the confirm button is red. */
  danger?: boolean;
  reason?: {
    label: string;
    /** Said under the field, e.g. who will read it. */
    hint?: string;
    maxLength: number;
    required?: boolean;
  };
};
/** Confirmed (with the reason written, '' without a field), or null when cancelled. */
export type AskAnswer = { reason: string } | null;
type Pending = AskRequest & { id: number; answer: (a: AskAnswer) => void };

// One question at a time, asked from anywhere (a menu action, a socket handler); AskDialogHost shows it.
let current: Pending | null = null;
let counter = 0;
const listeners = new Set<() => void>();
const emit = (next: Pending | null) => {
  current = next;
  for (const l of listeners) l();
};

/**
 * Asks for a confirmation in the app's dialog (mounted once, AskDialogHost) instead of the
 * browser's confirm/prompt. A new question while one is open cancels the first.
 */
export function ask(request: AskRequest): Promise<AskAnswer> {
  current?.answer(null);
  return new Promise((resolve) => {
    const id = ++counter;
    emit({
      ...request,
      id,
      answer: (a) => {
        if (current?.id === id) emit(null);
        resolve(a);
      },
    });
  });
}

/** The question shown now, for the host. */
export function peekAsk(): Pending | null {
  return current;
}

export function useAsk(): Pending | null {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    peekAsk,
    peekAsk,
  );
}
