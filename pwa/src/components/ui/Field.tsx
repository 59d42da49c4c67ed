import { useId, useState, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes, type TextareaHTMLAttributes } from 'react';
import { Trans } from '@lingui/react/macro';
import { focusRing } from './buttonStyles';

/** The look of every text input, select and text area (also for a bare control that has its own label). */
export const inputClass =
  'block w-full min-h-11 rounded-control border border-line-strong bg-surface px-3 py-2 text-body text-fg placeholder:text-fg-subtle focus:border-focus focus:outline-2 focus:outline-focus aria-[invalid=true]:border-danger';

/** What a control needs to be tied to its field's label, hint and error. */
export type ControlProps = { id: string; 'aria-invalid': true | undefined; 'aria-describedby': string | undefined };

type Common = { label: ReactNode; error?: string; hint?: ReactNode };

/**
 * A form field: the label above a control, its hint and error below, tied to it by id
 * (aria-describedby, aria-invalid), so a screen reader reads the error with the control.
 * `children` renders the control with the props it is given.
 */
export function Field({ id, label, error, hint, children }: Common & { id?: string; children: (control: ControlProps) => ReactNode }) {
  const auto = useId();
  const fieldId = id ?? auto;
  const describedBy = [error ? `${fieldId}-error` : null, hint ? `${fieldId}-hint` : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className="grid gap-1.5">
      <label htmlFor={fieldId} className="text-body-sm font-medium text-fg">
        {label}
      </label>
      {children({ id: fieldId, 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy })}
      {hint && (
        <p id={`${fieldId}-hint`} className="text-caption text-fg-subtle">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${fieldId}-error`} className="text-body-sm text-danger-text">
          {error}
        </p>
      )}
    </div>
  );
}

/** A labelled text input. */
export function TextField({ label, error, hint, id, className = '', ...input }: Common & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <Field id={id} label={label} error={error} hint={hint}>
      {(control) => <input {...control} className={`${inputClass} ${className}`} {...input} />}
    </Field>
  );
}

/** A labelled text area. */
export function TextAreaField({ label, error, hint, id, className = '', ...area }: Common & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return (
    <Field id={id} label={label} error={error} hint={hint}>
      {(control) => <textarea {...control} className={`${inputClass} resize-y ${className}`} {...area} />}
    </Field>
  );
}

/**
 * A password input with a Show / Hide button instead of a second "confirm" field: the person can
 * see what they typed. The button's name says what it will do ("Show password", "Hide password").
 */
export function PasswordField({
  label,
  error,
  hint,
  id,
  ...input
}: Common & { label: string } & Omit<InputHTMLAttributes<HTMLInputElement>, 'type'>) {
  const [shown, setShown] = useState(false);
  return (
    <Field id={id} label={label} error={error} hint={hint}>
      {(control) => (
        <div className="relative">
          <input
            {...control}
            type={shown ? 'text' : 'password'}
            className={`${inputClass} pe-20`}
            autoCapitalize="none"
            autoCorrect="off"
            spellCheck={false}
            {...input}
          />
          <button
            type="button"
            aria-controls={control.id}
            onClick={() => setShown((v) => !v)}
            className={`absolute inset-y-1 end-1 min-w-16 rounded-md px-3 text-body-sm font-semibold text-accent-text hover:bg-accent-soft ${focusRing}`}
          >
            {shown ? <Trans>Hide</Trans> : <Trans>Show</Trans>}
            <span className="sr-only"> {label.toLowerCase()}</span>
          </button>
        </div>
      )}
    </Field>
  );
}

/** A labelled native select (the phone's own picker, which a custom list cannot match on touch). */
export function SelectField({
  label,
  error,
  hint,
  id,
  className = '',
  children,
  ...select
}: Common & SelectHTMLAttributes<HTMLSelectElement>) {
  return (
    <Field id={id} label={label} error={error} hint={hint}>
      {(control) => (
        <select {...control} className={`${inputClass} ${className}`} {...select}>
          {children}
        </select>
      )}
    </Field>
  );
}

/** A checkbox with its label beside it and its error below, tied to it. */
export function CheckboxField({
  label,
  error,
  id,
  ...input
}: { label: ReactNode; error?: string } & Omit<InputHTMLAttributes<HTMLInputElement>, 'type'>) {
  const auto = useId();
  const fieldId = id ?? auto;
  return (
    <div className="grid gap-1.5">
      <div className="flex items-start gap-3">
        <input
          id={fieldId}
          type="checkbox"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${fieldId}-error` : undefined}
          className="mt-0.5 size-5 shrink-0 accent-accent"
          {...input}
        />
        <label htmlFor={fieldId} className="text-body-sm text-fg">
          {label}
        </label>
      </div>
      {error && (
        <p id={`${fieldId}-error`} className="text-body-sm text-danger-text">
          {error}
        </p>
      )}
    </div>
  );
}

/** The form-level error of a form; always in the tree so screen readers announce it when it fills. */
export function FormAlert({ message, className = 'mt-4' }: { message: string | undefined; className?: string }) {
  return (
    <p
      role="alert"
      className={
        message ? `${className} rounded-control bg-red-50 px-3 py-2 text-body-sm font-medium text-red-800 ring-1 ring-red-200` : 'sr-only'
      }
    >
      {message}
    </p>
  );
}
