import { lazy, Suspense, useEffect, useLayoutEffect, useRef, useState, type FormEvent } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router-dom';
import { useAppDispatch, useCurrentUser } from '../../store/hooks';
import { AuthCard } from '../../components/ui/Card';
import { FormAlert, TextField } from '../../components/ui/Field';
import { focusRing, primaryButton } from '../../components/ui/buttonStyles';
import { useReturnTo } from './returnToQuery';
import { isSignedInUser } from './authSlice';
import { GoogleIcon } from './GoogleIcon';
import { googleSignInMessage, loginErrorMessage } from './loginErrors';
import { ProofOfWork, type ProofHandle } from './ProofOfWork';
import { deviceFingerprint } from './deviceFingerprint';
import { DocumentTitle } from '../../components/DocumentTitle';
import type { AuthProviders } from '@parley/contract/auth';
import { errorBody, httpStatus } from '../../lib/apiError';
import { clearBanNotice, peekBanNotice } from '../../lib/banNotice';
import { APPEAL_PATH } from '@parley/contract/constants';
import type { SecondFactorAnswer } from '@parley/contract/factors';
import { Trans, useLingui } from '@lingui/react/macro';
import { msg } from '@lingui/core/macro';
import { i18n } from '@lingui/core';
import { prerenderedForm, releasePrerenderedForm } from '../../lib/prerenderedForm';

// The request helper (RTK Query) is not part of the first download, which the landing page shares:
// the login screen fetches it as it opens, well before anyone can press Login.
const loadApi = () => import('../../store/api');

// Passkeys and the second step load with the rest of the account code, not with the landing page.
const loadFactors = () => Promise.all([import('./factorsApi'), import('@simplewebauthn/browser')]);
const SecondFactorStep = lazy(() => import('./SecondFactorStep'));

/** The login screen: username and password, or Google. */
export default function LoginPage() {
  // What was typed into the pre-rendered page before the app took over (main.tsx) is kept.
  const [carried] = useState(() => prerenderedForm('/login'));
  const [username, setUsername] = useState(() => carried?.values.username ?? '');
  const [password, setPassword] = useState(() => carried?.values.password ?? '');
  const form = useRef<HTMLFormElement>(null);
  const [submitCarried, setSubmitCarried] = useState(false);
  useLayoutEffect(() => {
    // Read again now that the app's form is in place: the first render may have run in slices
    // (main.tsx), and a key or Enter pressed meanwhile counts too. Once: then it is released.
    // In the commit that replaced the markup, before the browser handles another key: a key
    // pressed after it lands in the app's form, where the caret is put back here.
    const latest = carried && prerenderedForm('/login');
    releasePrerenderedForm();
    if (!latest) return;
    /* eslint-disable react-hooks/set-state-in-effect -- the replaced markup is outside React, read this once */
    setUsername(latest.values.username ?? '');
    setPassword(latest.values.password ?? '');
    setSubmitCarried(latest.submitted);
    /* eslint-enable react-hooks/set-state-in-effect */
    const focused = latest.focused ?? carried.focused;
    const field = focused && form.current?.elements.namedItem(focused.name);
    if (focused && field instanceof HTMLInputElement) {
      field.focus();
      if (focused.start !== null && focused.end !== null) field.setSelectionRange(focused.start, focused.end);
    }
  }, [carried]);
  // After the render that holds what was carried over, so the submit sends it.
  useEffect(() => {
    if (submitCarried) form.current?.requestSubmit();
  }, [submitCarried]);
  const [searchParams] = useSearchParams();
  // Banned or suspended while using the app: the rule and the appeal, as a refused sign-in shows them.
  const [banned] = useState(peekBanNotice);
  useEffect(clearBanNotice, []);
  // A Google sign-in that failed comes back here with ?error=; say why until a field is edited.
  const [errMsg, setErrMsg] = useState(() => banned?.message ?? googleSignInMessage(searchParams.get('error')));
  const [isLoading, setIsLoading] = useState(false);
  // After a failed sign-in the server may ask for a bot check: it is solved from then on, ahead of the next try.
  const [checking, setChecking] = useState(false);
  const proof = useRef<ProofHandle>(null);
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const user = useCurrentUser();
  const { from, target } = useReturnTo();
  const { t } = useLingui();
  // A right password on an account with two-factor on: its second step.
  const [second, setSecond] = useState<SecondFactorAnswer['secondFactor'] | null>(null);
  // Known without waiting for the WebAuthn library, so the button is there from the first paint (at
  // build time there is no browser: assumed, as every current one has it).
  const [passkeys, setPasskeys] = useState(() => typeof window === 'undefined' || typeof window.PublicKeyCredential === 'function');
  // The latest passkey request: the autofill one, started on opening, must not start after the button's and cancel it.
  const ceremony = useRef(0);

  async function passkeySignIn(autofill: boolean) {
    const mine = ++ceremony.current;
    const [{ factorsApi }, { startAuthentication, browserSupportsWebAuthnAutofill }] = await loadFactors();
    if (autofill && !(await browserSupportsWebAuthnAutofill())) return;
    const options = dispatch(factorsApi.endpoints.passkeyLoginOptions.initiate());
    // Only a passkey that answered shows Loading...: a password sign-in may be running meanwhile.
    let signingIn = false;
    try {
      const optionsJSON = await options.unwrap();
      if (mine !== ceremony.current) return;
      const response = await startAuthentication({ optionsJSON, useBrowserAutofill: autofill });
      signingIn = true;
      setIsLoading(true);
      const fingerprint = await deviceFingerprint();
      const done = dispatch(factorsApi.endpoints.passkeyLogin.initiate({ response, ...(fingerprint ? { fingerprint } : {}) }));
      try {
        await done.unwrap();
      } finally {
        done.reset();
      }
      navigate(target, { replace: true });
    } catch (err) {
      // A prompt closed, or the autofill request given up for the button's: nothing to say. Nor
      // when the browser's autofill offer could not start: nobody asked for it (some browsers
      // report support and then refuse the request); an error after a passkey was picked is said.
      const name = (err as { name?: string } | null)?.name;
      if (autofill && !signingIn) return;
      if (name !== 'AbortError' && name !== 'NotAllowedError')
        setErrMsg(httpStatus(err) !== null ? loginErrorMessage(err) : t`The passkey could not be used. Try again.`);
      else if (!autofill && mine === ceremony.current) setErrMsg(t`The passkey prompt was closed before it finished. Try again.`);
    } finally {
      options.reset();
      if (signingIn) setIsLoading(false);
    }
  }

  // Back from Google on an account with two-factor on: its second step, kept by the server in a cookie.
  useEffect(() => {
    if (!searchParams.get('second_factor')) return;
    void loadFactors()
      .then(async ([{ factorsApi }]) => {
        const request = dispatch(factorsApi.endpoints.resumeSecondFactor.initiate());
        try {
          setSecond((await request.unwrap()).secondFactor);
        } catch (err) {
          setErrMsg(errorBody(err).message ?? i18n._(msg`This sign-in took too long. Sign in again.`));
        } finally {
          request.reset();
        }
      })
      .catch(() => undefined);
  }, [searchParams, dispatch]);

  // Where the browser offers passkeys in the username field's suggestions (conditional UI), ask at once.
  useEffect(() => {
    void loadFactors()
      .then(([, { browserSupportsWebAuthn }]) => {
        setPasskeys(browserSupportsWebAuthn());
        if (browserSupportsWebAuthn()) void passkeySignIn(true);
      })
      .catch(() => undefined);
    // Once, on opening the page.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  // The server's ERR.googleNotConfigured, in the interface language, and what to do instead.
  const googleUnavailable = t`Google sign-in is not configured on this server. Sign in with your username and password.`;

  useEffect(() => {
    void loadApi().catch(() => undefined); // Offline and not cached yet: tried again on submit.
  }, []);

  // Whether the Google button can work on this server: said at once, not after a redirect.
  const [google, setGoogle] = useState<boolean | null>(null);
  useEffect(() => {
    let live = true;
    fetch('/api/auth/providers', { credentials: 'same-origin' })
      .then((r) => (r.ok ? (r.json() as Promise<AuthProviders>) : null))
      .then((p) => live && p && setGoogle(p.google))
      .catch(() => undefined); // Unknown (offline): the button tries, and the server's page says why.
    return () => {
      live = false;
    };
  }, []);

  // Asked for a bot check the form did not send: it shows, solves, and the sign-in goes again by itself.
  const retryOnProof = useRef(false);
  const proofShown = (handle: ProofHandle | null) => {
    proof.current = handle;
    if (!handle || !retryOnProof.current) return;
    retryOnProof.current = false;
    void signIn(false, true);
  };

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    await signIn(true, checking);
  }

  async function signIn(mayRetry: boolean, withProof: boolean) {
    const altcha = withProof ? await proof.current?.take() : undefined;
    const fingerprint = await deviceFingerprint();
    setIsLoading(true);
    try {
      const { api } = await loadApi().catch((error: unknown) => {
        throw { status: 'FETCH_ERROR', error: String(error) }; // The code could not be fetched: no server.
      });
      const request = dispatch(
        api.endpoints.login.initiate({ username, password, ...(altcha ? { altcha } : {}), ...(fingerprint ? { fingerprint } : {}) }),
      );
      let answer;
      try {
        answer = await request.unwrap();
      } finally {
        request.reset(); // Nothing to keep: the token is in the auth slice.
      }
      setPassword('');
      if ('secondFactor' in answer) return setSecond(answer.secondFactor);
      setUsername('');
      navigate(target, { replace: true });
    } catch (err) {
      setErrMsg(loginErrorMessage(err));
      if (httpStatus(err) !== null) setChecking(true);
      retryOnProof.current = mayRetry && !altcha && errorBody(err).code === 'proof_required';
    } finally {
      setIsLoading(false);
    }
  }

  if (isLoading) {
    return (
      <AuthCard>
        <p role="status" className="text-center text-lg font-medium text-slate-800">
          <Trans>Loading...</Trans>
        </p>
      </AuthCard>
    );
  }
  // Already signed in (e.g. came back with the browser's back button): nothing to do here.
  if (isSignedInUser(user)) return <Navigate to={target} replace />;
  if (second) {
    return (
      <Suspense
        fallback={
          <p role="status">
            <Trans>Loading...</Trans>
          </p>
        }
      >
        <SecondFactorStep
          pending={second.pending}
          methods={second.methods}
          onDone={() => navigate(target, { replace: true })}
          onRestart={(message) => {
            setSecond(null);
            setErrMsg(message);
          }}
        />
      </Suspense>
    );
  }

  return (
    <AuthCard>
      <DocumentTitle title={t`Login · Parley`} />
      <h1 className="text-2xl font-bold text-slate-900">
        <Trans>Login</Trans>
      </h1>
      <FormAlert message={errMsg} />
      {/* A suspended or banned account may ask the team to look again, once. */}
      {/appeal once/.test(errMsg) || searchParams.get('error') === 'account_suspended' ? (
        <p className="mt-2 text-base">
          <Link to={banned?.appealPath ?? APPEAL_PATH} className="font-semibold text-indigo-800 underline underline-offset-2">
            <Trans>Appeal this decision</Trans>
          </Link>
        </p>
      ) : null}
      {/* POST: pressed before any script runs, the fields never end up in a URL. */}
      <form ref={form} method="post" onSubmit={onSubmit} data-carry-over className="mt-6 grid gap-4">
        <TextField
          label={t`Username`}
          name="username"
          autoComplete="username webauthn"
          required
          value={username}
          onChange={(e) => {
            setUsername(e.target.value);
            setErrMsg('');
          }}
        />
        <TextField
          label={t`Password`}
          name="password"
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(e) => {
            setPassword(e.target.value);
            setErrMsg('');
          }}
        />
        <button type="submit" className={primaryButton}>
          <Trans>Login</Trans>
        </button>
      </form>
      <p className="mt-3 flex flex-wrap justify-between gap-x-4 gap-y-2 text-sm">
        <Link to="/forgot-password" className={`font-semibold text-indigo-700 underline ${focusRing}`}>
          <Trans>Forgot password?</Trans>
        </Link>
        <Link to="/recover" className={`font-semibold text-indigo-700 underline ${focusRing}`}>
          <Trans>Use a recovery code</Trans>
        </Link>
      </p>
      {/* Outside the form: its checkbox must not hold the form back while it is being solved. */}
      {checking && (
        <div className="mt-4">
          <ProofOfWork ref={proofShown} />
        </div>
      )}
      <p className="mt-4 text-center text-sm text-slate-700">
        <Trans>
          Don&apos;t have an account?{' '}
          <Link to="/createaccount" state={from} className={`font-semibold text-indigo-700 underline ${focusRing}`}>
            Create one here
          </Link>
        </Trans>
      </p>
      <div className="my-6 flex items-center gap-3 text-sm text-slate-600" role="separator" aria-label={t`or continue with`}>
        <span className="h-px flex-1 bg-slate-300" aria-hidden="true" />
        <span aria-hidden="true">
          <Trans>or continue with</Trans>
        </span>
        <span className="h-px flex-1 bg-slate-300" aria-hidden="true" />
      </div>
      {passkeys && (
        <button
          type="button"
          onClick={() => void passkeySignIn(false)}
          className={`mb-3 inline-flex w-full items-center justify-center gap-3 rounded-lg border border-slate-400 bg-white px-4 py-2.5 text-base font-semibold text-slate-800 hover:bg-slate-50 ${focusRing}`}
        >
          <Trans>Sign in with a passkey</Trans>
        </button>
      )}
      <button
        type="button"
        aria-describedby={google === false ? 'google-unavailable' : undefined}
        onClick={() => (google === false ? setErrMsg(googleUnavailable) : window.location.assign('/api/auth/google'))}
        className={`inline-flex w-full items-center justify-center gap-3 rounded-lg border border-slate-400 bg-white px-4 py-2.5 text-base font-semibold text-slate-800 hover:bg-slate-50 ${focusRing}`}
      >
        <GoogleIcon />
        Google
      </button>
      {google === false && (
        // One short line: it appears once the server has answered, after the page is painted, so it
        // stays small beside the rest (the alert on pressing the button says what to do instead).
        <p id="google-unavailable" className="mt-2 text-center text-xs text-slate-700">
          <Trans>Google sign-in is not configured on this server.</Trans>
        </p>
      )}
      <p className="mt-6 text-center text-xs text-slate-600">
        <Trans>
          By clicking continue, you agree to our{' '}
          <Link to="/terms-of-service" className={`text-indigo-700 underline ${focusRing}`}>
            Terms of Service
          </Link>{' '}
          and{' '}
          <Link to="/privacy-policy" className={`text-indigo-700 underline ${focusRing}`}>
            Privacy Policy
          </Link>
          .
        </Trans>
      </p>
    </AuthCard>
  );
}
