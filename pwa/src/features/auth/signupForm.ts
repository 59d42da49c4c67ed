import { signupSchema, type SignupBody } from '@parley/contract/auth';
import { ERR } from '@parley/contract/errors';
import { i18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { httpStatus, describeApiError } from '../../lib/apiError';
import { errorsFromIssues, errorsFromServer, type FormErrors } from '../../lib/form';
import { fieldMessage } from './fieldMessages';

/** What the product needs to start: a name, a password (shown or hidden, no second copy), age, gender, the terms. */
export type SignupFormValues = { username: string; password: string; age: string; gender: string; agree: boolean; email?: string };
export type SignupField = keyof SignupFormValues;
export type SignupErrors = FormErrors<SignupField>;

/** Checks the form with the server's own schema, plus the terms, which only a form has. */
export function validateSignup(values: SignupFormValues): { body: SignupBody; errors: null } | { body: null; errors: SignupErrors } {
  const errors: SignupErrors = {};
  const parsed = signupSchema.safeParse({
    username: values.username,
    password: values.password,
    age: values.age.trim() === '' ? undefined : Number(values.age),
    gender: values.gender === '' ? undefined : values.gender,
    email: values.email,
  });
  if (!parsed.success) Object.assign(errors, ageAndGenderErrors(parsed.error.issues, values));
  // An empty field says so, rather than quoting a length rule.
  if (values.username.trim() === '') errors.username = i18n._(msg`Username is required`);
  if (values.password === '') errors.password = i18n._(msg`Password is required`);
  if (!values.agree)
    errors.agree = i18n._(msg`You must agree to the Terms of Service, the Community Rules and the Privacy Policy to create an account`);
  if (Object.keys(errors).length > 0 || !parsed.success) return { body: null, errors };
  return { body: parsed.data, errors: null };
}

/** The server's answer to a failed sign-up, shown beside the fields it concerns. */
export function signupServerErrors(error: unknown): SignupErrors {
  if (httpStatus(error) === 409) return { username: fieldMessage(ERR.usernameTaken) };
  return errorsFromServer<SignupField>(error, ['username', 'password', 'age', 'gender', 'email'], fieldMessage, describeApiError);
}

/**
 * The schema's messages for a sign-up or a confirmation of age and gender: an empty age or gender
 * says what to do rather than quoting a rule.
 */
export function ageAndGenderErrors<F extends string>(
  issues: readonly { path: PropertyKey[]; message: string }[],
  values: { age: string; gender: string },
): FormErrors<F> {
  return errorsFromIssues<F>(issues, ({ field, message }) =>
    field === 'age' && values.age.trim() === ''
      ? i18n._(msg`Age is required`)
      : field === 'gender' && !values.gender
        ? i18n._(msg`Choose your gender`)
        : fieldMessage(message),
  );
}
