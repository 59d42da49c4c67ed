import type { FormEvent } from 'react';
import { Navigate, useNavigate } from 'react-router-dom';
import { MAX_AGE, MIN_AGE } from '@parley/contract/constants';
import { verifyInfoSchema } from '@parley/contract/auth';
import { useVerifyInfoMutation } from '../../store/api';
import { useCurrentUser, useSessionStatus } from '../../store/hooks';
import { AuthCard } from '../../components/ui/Card';
import { FormAlert, SelectField, TextField } from '../../components/ui/Field';
import { primaryButton } from '../../components/ui/buttonStyles';
import { GenderOptions } from './GenderOptions';
import { FullScreenSpinner } from '../../components/FullScreenSpinner';
import { describeApiError } from '../../lib/apiError';
import { errorsFromServer, useForm } from '../../lib/form';
import { ageAndGenderErrors } from './signupForm';
import { isSignedInUser } from './authSlice';
import { deviceFingerprint } from './deviceFingerprint';
import { DocumentTitle } from '../../components/DocumentTitle';
import { AppHeader } from '../../components/layout/AppHeader';
import { fieldMessage } from './fieldMessages';
import { Trans, useLingui } from '@lingui/react/macro';

/** After Google sign-in: the age and gender Google does not tell us, then the dashboard. */
export default function ConfirmAccountPage() {
  const { values, errors, set, fail, formRef } = useForm({ age: '', gender: '' });
  const [verifyInfo, { isLoading }] = useVerifyInfoMutation();
  const navigate = useNavigate();
  const user = useCurrentUser();
  const session = useSessionStatus();
  const { t } = useLingui();

  if (session === 'restoring') return <FullScreenSpinner />;
  if (!isSignedInUser(user)) return <Navigate to="/login" replace state={{ from: { pathname: '/confirm-account' } }} />;
  // Age and gender are declared once: an account that gave them has nothing to confirm.
  if (user!.age !== null && user!.gender !== null) return <Navigate to="/dashboard" replace />;

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const { age, gender } = values;
    const parsed = verifyInfoSchema.safeParse({ age: age.trim() === '' ? undefined : Number(age), gender: gender || undefined });
    if (!parsed.success) {
      fail(ageAndGenderErrors(parsed.error.issues, values));
      return;
    }
    try {
      const fingerprint = await deviceFingerprint();
      await verifyInfo({ ...parsed.data, ...(fingerprint ? { fingerprint } : {}) }).unwrap();
      navigate('/dashboard', { replace: true });
    } catch (err) {
      fail(errorsFromServer(err, ['age', 'gender'], fieldMessage, describeApiError));
    }
  }

  const username = user!.username;
  const minAge = MIN_AGE;
  // Outside the landing's top bar: the app's own header stands above the card, so its background
  // reaches the bottom of the screen (without one the card's page ended 4rem short, a white strip).
  return (
    <>
      <AppHeader home="/dashboard" />
      <AuthCard>
        <DocumentTitle title={t`Confirm your account · Parley`} />
        <h1 className="text-2xl font-bold text-slate-900">
          <Trans>One more step, {username}</Trans>
        </h1>
        <p className="mt-1 text-sm text-slate-700">
          <Trans>
            Tell us your age and gender so we can match you with the right people. Parley is only for people {minAge} and older.
          </Trans>
        </p>
        <FormAlert message={errors.form} />
        <form ref={formRef} onSubmit={onSubmit} noValidate className="mt-6 grid gap-4">
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
          <button type="submit" className={primaryButton} disabled={isLoading}>
            {isLoading ? t`Saving…` : t`Continue`}
          </button>
        </form>
      </AuthCard>
    </>
  );
}
