import { useCallback, useRef, useState } from 'react';
import { errorBody, httpStatus } from './apiError';

/**
 * The one way Parley's forms check what was typed: the values, a message per field (and one for
 * the whole form), checked with the server's own zod schema before sending, the server's
 * per-field answer shown beside the same fields, and focus moved to the first field in error.
 * The fields themselves are components/ui/Field.
 */
export type FormErrors<F extends string> = Partial<Record<F | 'form', string>>;

/** A zod issue, as much of it as the form needs. */
type Issue = { path: PropertyKey[]; message: string };

/** The first message for each field of a failed parse (`message` puts it in the interface language). */
export function errorsFromIssues<F extends string>(
  issues: readonly Issue[],
  message: (issue: Issue & { field: F }) => string,
): FormErrors<F> {
  const errors: FormErrors<F> = {};
  for (const issue of issues) {
    const field = String(issue.path[0] ?? 'form') as F;
    errors[field] ??= message({ ...issue, field });
  }
  return errors;
}

/**
 * A failed request's answer as form errors: the server's per-field messages (400 `fields`) beside
 * the fields this form has, anything else as the form's own message (`describe`).
 */
export function errorsFromServer<F extends string>(
  error: unknown,
  fields: readonly F[],
  message: (text: string) => string,
  describe: (error: unknown) => string,
): FormErrors<F> {
  const body = errorBody(error);
  if (httpStatus(error) === 400 && body.fields && Object.keys(body.fields).length > 0) {
    const errors: FormErrors<F> = {};
    for (const [field, text] of Object.entries(body.fields)) {
      if ((fields as readonly string[]).includes(field)) errors[field as F] ??= message(text);
      else errors.form ??= message(text);
    }
    return errors;
  }
  return { form: describe(error) } as FormErrors<F>;
}

/**
 * A form's values and errors. `set` changes one field and clears its error and the form's;
 * `fail` shows errors and moves focus to the first field marked invalid (the form's alert speaks
 * for itself); `formRef` goes on the <form>.
 */
export function useForm<V extends Record<string, unknown>>(initial: V) {
  type F = Extract<keyof V, string>;
  const [values, setValues] = useState<V>(initial);
  const [errors, setErrors] = useState<FormErrors<F>>({});
  const formRef = useRef<HTMLFormElement>(null);
  const initialRef = useRef(initial);

  const set = useCallback(<K extends F>(field: K, value: V[K]) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => (e[field] || e.form ? { ...e, [field]: undefined, form: undefined } : e));
  }, []);

  const fail = useCallback((found: FormErrors<F>) => {
    setErrors(found);
    // After React has marked the fields invalid.
    requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
  }, []);

  const reset = useCallback(() => {
    setValues(initialRef.current);
    setErrors({});
  }, []);

  return { values, errors, set, setValues, setErrors, fail, reset, formRef };
}
