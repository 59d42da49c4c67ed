import { signupSchema, type SignupBody } from '@parley/contract/auth';
import { ERR } from '@parley/contract/errors';
import { i18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { errorBody, httpStatus, describeApiError } from '../../lib/apiError';
import { fieldMessage } from './fieldMessages';

/** What the product needs to start: a name, a password (shown or hidden, no second copy), age, gender, the terms. */
export type SignupFormValues = { username: string; password: string; age: string; gender: string; agree: boolean; email?: string };
export type SignupField = keyof SignupFormValues;
export type SignupErrors = Partial<Record<SignupField | 'form', string>>;

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
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] as SignupField;
      errors[field] ??=
        field === 'age' && values.age.trim() === ''
          ? i18n._(msg`Age is required`)
          : field === 'gender' && !values.gender
            ? i18n._(msg`Choose your gender`)
            : fieldMessage(issue.message);
    }
  }
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
  const status = httpStatus(error);
  if (status === 409) return { username: fieldMessage(ERR.usernameTaken) };
  const body = errorBody(error);
  if (status === 400 && body.fields && Object.keys(body.fields).length > 0) {
    const known: SignupField[] = ['username', 'password', 'age', 'gender', 'email'];
    const errors: SignupErrors = {};
    for (const [field, message] of Object.entries(body.fields)) {
      if ((known as string[]).includes(field)) errors[field as SignupField] = fieldMessage(message);
      else errors.form = fieldMessage(message);
    }
    return errors;
  }
  return { form: describeApiError(error) };
}
