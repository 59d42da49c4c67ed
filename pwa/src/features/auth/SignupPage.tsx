import { useRef, useState, type FormEvent } from 'react';
import { Link, Navigate, useNavigate } from 'react-router-dom';
import { MAX_AGE, MIN_AGE } from '@parley/contract/constants';
import type { UsernameCheck } from '@parley/contract/auth';
import { useSignupMutation } from '../../store/api';
import { useCurrentUser } from '../../store/hooks';
import { AuthCard } from '../../components/ui/Card';
import { CheckboxField, FormAlert, PasswordField, SelectField, TextField } from '../../components/ui/Field';
import { focusRing, primaryButton } from '../../components/ui/buttonStyles';
import { useForm } from '../../lib/form';
import { GenderOptions } from './GenderOptions';
import { useReturnTo } from './returnToQuery';
import { signupServerErrors, validateSignup, type SignupField, type SignupFormValues } from './signupForm';
import { DocumentTitle } from '../../components/DocumentTitle';
import { isSignedInUser } from './authSlice';
import { ProofOfWork, type ProofHandle } from './ProofOfWork';
import { useEmailAvailable } from './useEmailAvailable';
import { deviceFingerprint } from './deviceFingerprint';
import { Trans, useLingui } from '@lingui/react/macro';

const empty: SignupFormValues = { username: '', password: '', age: '', gender: '', agree: false, email: '' };

/**
 * Sign-up in one short screen: only what Parley needs to start (username, password, age, gender,
 * the terms). The name is checked when the field is left, and a taken or reserved one comes with
 * free names to pick with one tap. The new user lands where they were going (the text chat, from
 * "Start a conversation").
 */
export default function SignupPage() {
  const { values, errors, set: setField, setValues, setErrors, fail, reset, formRef } = useForm(empty);
  const [signup, { isLoading }] = useSignupMutation();
  // The answer for the name as it is now (an older answer is for a name since edited).
  const [check, setCheck] = useState<UsernameCheck | null>(null);
  const typedName = useRef('');
  /**
   * The name whose free names are shown or being asked for: until it is edited it is not asked
   * again (leaving the field, a refused submit), as a second answer would move them under the finger.
   */
  const listedFor = useRef<string | null>(null);
  const proof = useRef<ProofHandle>(null);
  const emailAvailable = useEmailAvailable();
  // Only when the form is sent faster than the check is solved (a person typing never sees it).
  const [awaitingCheck, setAwaitingCheck] = useState(false);
  const navigate = useNavigate();
  const user = useCurrentUser();
  const { from, target } = useReturnTo();
  const { t } = useLingui();

  function set<K extends SignupField>(field: K, value: SignupFormValues[K]) {
    setField(field, value);
    if (field === 'username') {
      typedName.current = String(value).trim();
      listedFor.current = null;
      setCheck(null);
    }
  }

  /** Asks whether the name is free; a taken or reserved one shows free names like it. */
  async function checkUsername(name: string) {
    const trimmed = name.trim();
    if (trimmed.length < 3) return; // The form says why on submit.
    if (listedFor.current === trimmed) return;
    listedFor.current = trimmed;
    const answer = await checkName(trimmed).catch(() => null); // Offline or limited: the sign-up itself still answers.
    // No free names to keep on screen: a later check may ask again.
    if ((!answer || answer.available) && listedFor.current === trimmed) listedFor.current = null;
    // Only the answer for the name as it is now.
    if (!answer || answer.username !== typedName.current) return;
    setCheck(answer);
    if (answer.available) return;
    listedFor.current = trimmed; // shown now, even if the name was edited and typed back meanwhile
    setErrors((e) => ({ ...e, username: answer.reason }));
  }

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const checked = validateSignup(values);
    if (checked.errors) {
      fail(checked.errors);
      if (checked.errors.age && saysUnderage(values.age)) void tellUnderage(Number(values.age));
      if (checked.errors.username) void checkUsername(values.username);
      return;
    }
    try {
      setAwaitingCheck(true);
      const [altcha, fingerprint] = await Promise.all([proof.current?.take().finally(() => setAwaitingCheck(false)), deviceFingerprint()]);
      await signup({ ...checked.body, altcha, ...(fingerprint ? { fingerprint } : {}) }).unwrap();
      reset();
      navigate(target, { replace: true });
    } catch (err) {
      const server = signupServerErrors(err);
      fail(server);
      proof.current?.renew();
      // Free names already shown for this very name stay put (checkUsername does not ask again).
      if (server.username) void checkUsername(values.username);
    }
  }

  function pick(name: string) {
    typedName.current = name;
    listedFor.current = null;
    setValues((v) => ({ ...v, username: name }));
    setErrors((e) => ({ ...e, username: undefined, form: undefined }));
    setCheck({ username: name, available: true, suggestions: [] });
    document.getElementById('signup-password')?.focus();
  }

  // Already signed in (back button, or "Start a conversation" while signed in): on to where they were going.
  if (isSignedInUser(user) && !isLoading) return <Navigate to={target} replace />;

  const suggestions = check && !check.available ? check.suggestions : [];
  const free = check?.available && check.username === values.username.trim();
  return (
    <AuthCard>
      <DocumentTitle title={t`Create your account · Parley`} />
      <h1 className="text-2xl font-bold text-slate-900">
        <Trans>Create your account</Trans>
      </h1>
      <p className="mt-1 text-sm text-slate-700">
        <Trans>Free, and ready in a few seconds. Parley is for adults, {MIN_AGE} and older.</Trans>
      </p>
      <FormAlert message={errors.form} />
      <form ref={formRef} onSubmit={onSubmit} noValidate className="mt-5 grid gap-4">
        <div className="grid gap-2">
          <TextField
            label={t`Username`}
            name="username"
            autoComplete="username"
            autoCapitalize="none"
            autoCorrect="off"
            spellCheck={false}
            required
            value={values.username}
            error={errors.username}
            hint={
              free ? (
                <span className="font-medium text-emerald-800">
                  <Trans>{values.username.trim()} is free</Trans>
                </span>
              ) : errors.username ? undefined : (
                t`Letters, digits, _ or -`
              )
            }
            onChange={(e) => set('username', e.target.value)}
            onBlur={(e) => void checkUsername(e.target.value)}
          />
          {suggestions.length > 0 && (
            <div className="flex flex-wrap items-center gap-2 text-sm">
              <span id="username-suggestions" className="text-slate-700">
                <Trans>Free names:</Trans>
              </span>
              <ul aria-labelledby="username-suggestions" className="contents">
                {suggestions.map((name) => (
                  <li key={name} className="contents">
                    <button
                      type="button"
                      onClick={() => pick(name)}
                      className={`rounded-full bg-indigo-50 px-3 py-1.5 font-medium text-indigo-800 ring-1 ring-indigo-200 hover:bg-indigo-100 ${focusRing}`}
                    >
                      {name}
                    </button>
                  </li>
                ))}
              </ul>
            </div>
          )}
        </div>
        <PasswordField
          id="signup-password"
          label={t`Password`}
          name="password"
          autoComplete="new-password"
          required
          value={values.password}
          error={errors.password}
          hint={t`At least 8 characters`}
          onChange={(e) => set('password', e.target.value)}
        />
        {/* Optional, and only where this server can send email: chatting never needs an address. */}
        {emailAvailable && (
          <TextField
            label={t`Email (optional)`}
            name="email"
            type="email"
            autoComplete="email"
            value={values.email ?? ''}
            error={errors.email}
            hint={t`To reset a forgotten password. Nobody else sees it.`}
            onChange={(e) => set('email', e.target.value)}
          />
        )}
        <div className="grid grid-cols-2 gap-4">
          <TextField
            label={t`Age`}
            name="age"
            type="number"
            inputMode="numeric"
            min={MIN_AGE}
            max={MAX_AGE}
            required
            value={values.age}
            error={errors.age}
            onChange={(e) => set('age', e.target.value)}
          />
          <SelectField
            label={t`Gender`}
            name="gender"
            required
            value={values.gender}
            error={errors.gender}
            onChange={(e) => set('gender', e.target.value)}
          >
            <GenderOptions />
          </SelectField>
        </div>
        <CheckboxField
          id="agree"
          name="agree"
          checked={values.agree}
          error={errors.agree}
          onChange={(e) => set('agree', e.target.checked)}
          label={
            <Trans>
              I am {MIN_AGE} or older and agree to the{' '}
              <Link to="/terms-of-service" className={`text-accent-text underline ${focusRing}`}>
                Terms of Service
              </Link>
              , the{' '}
              <Link to="/rules" className={`text-accent-text underline ${focusRing}`}>
                Community Rules
              </Link>{' '}
              and the{' '}
              <Link to="/privacy-policy" className={`text-accent-text underline ${focusRing}`}>
                Privacy Policy
              </Link>
              .
            </Trans>
          }
        />
        <ProofOfWork ref={proof} purpose="signup" />
        <button type="submit" className={primaryButton} disabled={isLoading || awaitingCheck}>
          {isLoading ? t`Creating your account…` : awaitingCheck ? t`Checking you are not a bot…` : t`Create account`}
        </button>
      </form>
      <p className="mt-4 text-center text-sm text-slate-700">
        <Trans>
          Already have an account?{' '}
          <Link to="/login" state={from} className={`font-semibold text-indigo-700 underline ${focusRing}`}>
            Log in
          </Link>
        </Trans>
      </p>
    </AuthCard>
  );
}

/** A whole number under MIN_AGE: someone telling us they are a minor. */
function saysUnderage(age: string): boolean {
  const n = Number(age.trim());
  return age.trim() !== '' && Number.isInteger(n) && n >= 0 && n < MIN_AGE;
}

/**
 * The server hears an under-age answer too, not only this form: the same browser then cannot give
 * another age for a day. Only the age and the device fingerprint are sent; the answer is the same
 * "must be 18" the form already shows.
 */
async function tellUnderage(age: number) {
  const fingerprint = await deviceFingerprint();
  await fetch('/api/auth/signup', {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ age, ...(fingerprint ? { fingerprint } : {}) }),
  }).catch(() => undefined);
}

/** GET /api/auth/username-check: a plain request (no session needed, nothing to cache). */
async function checkName(username: string): Promise<UsernameCheck | null> {
  const res = await fetch(`/api/auth/username-check?${new URLSearchParams({ username })}`, { credentials: 'same-origin' });
  return res.ok ? ((await res.json()) as UsernameCheck) : null;
}
