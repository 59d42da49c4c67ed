import { forwardRef, useEffect, useImperativeHandle, useRef } from 'react';
import type {} from 'altcha/types/react';
import type { WidgetMethods } from 'altcha/types';

type Widget = HTMLElement & WidgetMethods;
type StateChange = CustomEvent<{ state: string; payload?: string }>;

/** The widget's methods exist once its code has loaded and it has started. */
const ready = (el: Widget) => typeof el.verify === 'function' && typeof el.getState === 'function';

/** How long a submit waits for a check still being solved before sending without it (the server then says why). */
const WAIT_MS = 30_000;

export type ProofHandle = {
  /** The solved proof for one submission: waits for a check still running. A proof is good for one request. */
  take(): Promise<string | undefined>;
  /** After a refused submission: solves a new check now, while the person reads the answer. */
  renew(): void;
};

/**
 * The "not a bot" check of the sign-up and sign-in forms (altcha, self-hosted): it fetches a
 * challenge from /api/auth/challenge and solves it in a worker as soon as it shows, so the work is
 * done while the person types and a submit never waits for it in practice.
 */
export const ProofOfWork = forwardRef<ProofHandle>(function ProofOfWork(_props, ref) {
  const widget = useRef<Widget | null>(null);
  const solved = useRef<string | null>(null);
  const waiting = useRef<Array<(payload: string | undefined) => void>>([]);

  useEffect(() => {
    // The widget's code loads after the form shows: the form never waits for it.
    void import('./altchaWidget').then(() => customElements.whenDefined('altcha-widget'));
    const el = widget.current;
    if (!el) return;
    const onChange = (e: Event) => {
      const { state, payload } = (e as StateChange).detail;
      if (state === 'verified' && payload) solved.current = payload;
      else if (state !== 'verifying') solved.current = null;
      if (state === 'verifying') return;
      for (const resolve of waiting.current.splice(0)) resolve(solved.current ?? undefined);
    };
    el.addEventListener('statechange', onChange);
    return () => el.removeEventListener('statechange', onChange);
  }, []);

  useImperativeHandle(ref, () => ({
    async take() {
      const el = widget.current;
      if (!el) return undefined;
      const payload =
        solved.current ??
        (await new Promise<string | undefined>((resolve) => {
          waiting.current.push(resolve);
          setTimeout(() => resolve(undefined), WAIT_MS);
          // Loaded but not running (failed or expired): start it now. Not loaded yet: it starts by itself on load.
          if (ready(el) && el.getState() !== 'verifying') el.verify().catch(() => resolve(undefined));
        }));
      solved.current = null;
      if (ready(el)) el.reset();
      return payload;
    },
    renew() {
      const el = widget.current;
      if (el && ready(el) && el.getState() !== 'verifying') el.verify().catch(() => undefined);
    },
  }));

  return (
    <altcha-widget
      ref={widget}
      challenge="/api/auth/challenge"
      auto="onload"
      name="altcha"
      configuration={JSON.stringify({ hideFooter: true, minDuration: 0, credentials: 'same-origin' })}
    />
  );
});
