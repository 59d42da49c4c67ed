import { forwardRef, useEffect, useImperativeHandle, useRef, useState } from 'react';
import type {} from 'altcha/types/react';
import type { WidgetMethods } from 'altcha/types';
import { deviceFingerprint } from './deviceFingerprint';
import { Trans, useLingui } from '@lingui/react/macro';

type Widget = HTMLElement & WidgetMethods;
type StateChange = CustomEvent<{ state: string; payload?: string }>;

/** The widget's methods exist once its code has loaded and it has started. */
const ready = (el: Widget) => typeof el.verify === 'function' && typeof el.getState === 'function';

/**
 * How long a submit waits for a check still being solved before sending without it (the server
 * then says why). Long: a sign-up from a network or device linked to a banned account gets a
 * check many times harder, which takes a slow phone a minute or more.
 */
const WAIT_MS = 180_000;
/** A check still running after this long is shown with its progress, so nobody thinks the page froze. */
const SHOW_PROGRESS_AFTER_MS = 2_000;
/** The widget's states that end a check: a submit waiting for one gets its answer. */
const FINAL_STATES = new Set(['verified', 'error', 'expired', 'code']);

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
export const ProofOfWork = forwardRef<ProofHandle, { purpose?: 'signup' | 'login' }>(function ProofOfWork({ purpose = 'login' }, ref) {
  const { i18n, t } = useLingui();
  const widget = useRef<Widget | null>(null);
  const solved = useRef<string | null>(null);
  const waiting = useRef<Array<(payload: string | undefined) => void>>([]);
  // Has the widget begun a check of its own yet? Until then its automatic check on load is still to come.
  const started = useRef(false);
  // The challenge names the page's device fingerprint: a sign-up linked to a banned account gets the hard one at once.
  const [challengeUrl, setChallengeUrl] = useState<string | null>(null);
  // When the running check started, and seconds since, once it has taken a while.
  const [verifyingSince, setVerifyingSince] = useState<number | null>(null);
  const [elapsedS, setElapsedS] = useState(0);
  // Resolved once the widget is on the page (after the fingerprint): a submit before that waits for it.
  const shown = useRef(deferred());

  useEffect(() => {
    let live = true;
    void deviceFingerprint().then((fingerprint) => {
      const query = new URLSearchParams({ purpose, ...(fingerprint ? { fingerprint } : {}) });
      if (live) setChallengeUrl(`/api/auth/challenge?${query}`);
    });
    return () => {
      live = false;
    };
  }, [purpose]);

  useEffect(() => {
    if (!challengeUrl) return;
    // The widget's code loads after the form shows: the form never waits for it.
    void import('./altchaWidget').then(() => customElements.whenDefined('altcha-widget'));
    const el = widget.current;
    if (!el) return;
    shown.current.resolve();
    const onChange = (e: Event) => {
      const { state, payload } = (e as StateChange).detail;
      setVerifyingSince((since) => (state === 'verifying' ? (since ?? Date.now()) : null));
      if (state === 'verifying') started.current = true;
      if (state === 'verified' && payload) solved.current = payload;
      else if (state !== 'verifying') solved.current = null;
      // Only an end answers a waiting submit. "unverified" is not one: a check that a newer one
      // replaced (the widget aborts the older) says it on its way out, and a reset says it too.
      if (!FINAL_STATES.has(state)) return;
      for (const resolve of waiting.current.splice(0)) resolve(solved.current ?? undefined);
    };
    el.addEventListener('statechange', onChange);
    return () => el.removeEventListener('statechange', onChange);
  }, [challengeUrl]);

  // The widget speaks the interface language: its texts come from Parley's catalogs once its code is loaded.
  // Lower case: the widget looks its texts up by the lower-cased tag (pt-br, en-xa).
  const language = i18n.locale.toLowerCase();
  useEffect(() => {
    if (!challengeUrl) return;
    let live = true;
    void import('./altchaWidget').then(({ setAltchaStrings }) => {
      if (!live) return;
      const waitAlert = t`Checking you are not a bot… please wait.`;
      setAltchaStrings(language, {
        ariaLinkLabel: 'ALTCHA',
        enterCode: t`Enter the code`,
        enterCodeAria: t`Enter the code you hear. Press Space to play the audio.`,
        error: t`The check failed. Try again later.`,
        expired: t`The check expired. Try again.`,
        footer: '',
        getAudioChallenge: t`Get an audio challenge`,
        label: t`I'm not a robot`,
        loading: t`Loading...`,
        reload: t`Reload`,
        verify: t`Verify`,
        verificationRequired: t`Verification required!`,
        verified: t`Verified`,
        verifying: t`Checking…`,
        waitAlert,
      });
    });
    return () => {
      live = false;
    };
  }, [challengeUrl, language, t]);

  useEffect(() => {
    if (verifyingSince === null) return setElapsedS(0);
    const tick = setInterval(() => setElapsedS(Math.floor((Date.now() - verifyingSince) / 1000)), 1000);
    return () => clearInterval(tick);
  }, [verifyingSince]);

  useImperativeHandle(ref, () => ({
    async take() {
      if (!widget.current) await Promise.race([shown.current.promise, new Promise((r) => setTimeout(r, WAIT_MS))]);
      const el = widget.current;
      if (!el) return undefined;
      const payload =
        solved.current ??
        (await new Promise<string | undefined>((resolve) => {
          waiting.current.push(resolve);
          setTimeout(() => resolve(undefined), WAIT_MS);
          // Loaded, past its own first check and not running (failed, expired or reset): start one
          // now. Not loaded or not started yet: it starts by itself on load, and a second start
          // would abort that one.
          if (ready(el) && started.current && el.getState() !== 'verifying') el.verify().catch(() => resolve(undefined));
        }));
      solved.current = null;
      if (ready(el)) el.reset();
      return payload;
    },
    renew() {
      const el = widget.current;
      if (el && ready(el) && started.current && el.getState() !== 'verifying') el.verify().catch(() => undefined);
    },
  }));

  if (!challengeUrl) return null;
  const slow = verifyingSince !== null && elapsedS * 1000 >= SHOW_PROGRESS_AFTER_MS;
  return (
    <div className="grid gap-2">
      <altcha-widget
        ref={widget}
        challenge={challengeUrl}
        language={language}
        auto="onload"
        name="altcha"
        configuration={JSON.stringify({ hideFooter: true, minDuration: 0, credentials: 'same-origin' })}
      />
      {slow && (
        <div className="grid gap-1 text-sm text-slate-700">
          <p role="status">
            <Trans>Still checking that you are not a bot. This can take a minute on some networks; keep this page open.</Trans>
          </p>
          <div className="flex items-center gap-2">
            {/* Indeterminate: the work a check needs is only known once it is found. */}
            <progress className="h-2 w-full accent-indigo-700" aria-label={t`Bot check in progress`} />
            <span aria-hidden="true" className="tabular-nums">
              {elapsedS} s
            </span>
          </div>
        </div>
      )}
    </div>
  );
});

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = () => {};
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}
