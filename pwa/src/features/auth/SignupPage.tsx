import { useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { MAX_AGE, MIN_AGE } from '@parley/contract/constants';
import { useSignupMutation } from '../../app/api';
import { AuthCard, FormAlert, SelectField, TextField, focusRing, primaryButton } from '../../components/FormField';
import { GenderOptions } from './GenderOptions';
import { returnToPath } from '../../lib/returnTo';
import { signupServerErrors, validateSignup, type SignupErrors, type SignupField, type SignupFormValues } from './signupForm';
import { DocumentTitle } from '../../components/DocumentTitle';

const empty: SignupFormValues = { username: '', password: '', confirmPassword: '', age: '', gender: '', agree: false };

/** Sign-up: the accounts API's form, checked with the server's own schema first. */
export default function SignupPage() {
  const [values, setValues] = useState(empty);
  const [errors, setErrors] = useState<SignupErrors>({});
  const [signup, { isLoading }] = useSignupMutation();
  const navigate = useNavigate();
  const location = useLocation();

  function set<K extends SignupField>(field: K, value: SignupFormValues[K]) {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => ({ ...e, [field]: undefined, form: undefined }));
  }

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const checked = validateSignup(values);
    if (checked.errors) {
      setErrors(checked.errors);
      focusFirstInvalid(e.currentTarget);
      return;
    }
    try {
      await signup(checked.body).unwrap();
      setValues(empty);
      navigate(returnToPath(location.state), { replace: true });
    } catch (err) {
      setErrors(signupServerErrors(err));
    }
  }

  return (
    <AuthCard>
      <DocumentTitle title="Create your account · Parley" />
      <h1 className="text-2xl font-bold text-slate-900">Create your account</h1>
      <p className="mt-1 text-sm text-slate-700">Parley is for adults: you must be {MIN_AGE} or older.</p>
      <FormAlert message={errors.form} />
      <form onSubmit={onSubmit} noValidate className="mt-6 grid gap-4">
        <TextField
          label="Username"
          name="username"
          autoComplete="username"
          required
          value={values.username}
          error={errors.username}
          hint="3 to 20 letters, digits, _ or -"
          onChange={(e) => set('username', e.target.value)}
        />
        <TextField
          label="Password"
          name="password"
          type="password"
          autoComplete="new-password"
          required
          value={values.password}
          error={errors.password}
          hint="At least 8 characters"
          onChange={(e) => set('password', e.target.value)}
        />
        <TextField
          label="Confirm password"
          name="confirmPassword"
          type="password"
          autoComplete="new-password"
          required
          value={values.confirmPassword}
          error={errors.confirmPassword}
          onChange={(e) => set('confirmPassword', e.target.value)}
        />
        <div className="grid grid-cols-2 gap-4">
          <TextField
            label="Age"
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
            label="Gender"
            name="gender"
            required
            value={values.gender}
            error={errors.gender}
            onChange={(e) => set('gender', e.target.value)}
          >
            <GenderOptions />
          </SelectField>
        </div>
        <div className="grid gap-1.5">
          <div className="flex items-start gap-2">
            <input
              id="agree"
              name="agree"
              type="checkbox"
              checked={values.agree}
              aria-invalid={errors.agree ? true : undefined}
              aria-describedby={errors.agree ? 'agree-error' : undefined}
              onChange={(e) => set('agree', e.target.checked)}
              className="mt-1 size-4 accent-indigo-700"
            />
            <label htmlFor="agree" className="text-sm text-slate-800">
              I am {MIN_AGE} or older and agree to the{' '}
              <Link to="/terms-of-service" className={`text-indigo-700 underline ${focusRing}`}>
                Terms of Service
              </Link>{' '}
              and the{' '}
              <Link to="/privacy-policy" className={`text-indigo-700 underline ${focusRing}`}>
                Privacy Policy
              </Link>
              .
            </label>
          </div>
          {errors.agree && (
            <p id="agree-error" className="text-sm text-red-700">
              {errors.agree}
            </p>
          )}
        </div>
        <button type="submit" className={primaryButton} disabled={isLoading}>
          {isLoading ? 'Creating your account…' : 'Create account'}
        </button>
      </form>
      <p className="mt-4 text-center text-sm text-slate-700">
        Already have an account?{' '}
        <Link to="/login" state={location.state} className={`font-semibold text-indigo-700 underline ${focusRing}`}>
          Log in
        </Link>
      </p>
    </AuthCard>
  );
}

function focusFirstInvalid(form: HTMLFormElement) {
  // Runs after React has marked the fields invalid.
  requestAnimationFrame(() => form.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
}
