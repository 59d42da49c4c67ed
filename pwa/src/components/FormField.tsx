import { useId, useState, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes } from 'react';
import { Trans } from '@lingui/react/macro';

export const focusRing = 'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-700';
export const inputClass =
  'block w-full rounded-lg border border-slate-400 bg-white px-3 py-2 text-base text-slate-900 placeholder:text-slate-500 focus:border-indigo-700 focus:outline-2 focus:outline-indigo-700 aria-[invalid=true]:border-red-700';
export const primaryButton = `inline-flex w-full items-center justify-center rounded-lg bg-indigo-700 px-4 py-2.5 text-base font-semibold text-white hover:bg-indigo-800 disabled:opacity-60 ${focusRing}`;

type Common = { label: string; error?: string; hint?: ReactNode };

/** The label above a control, and its hint and error below, tied to it by id. */
function FieldFrame({ fieldId, label, error, hint, children }: Common & { fieldId: string; children: ReactNode }) {
  return (
    <div className="grid gap-1.5">
      <label htmlFor={fieldId} className="text-sm font-medium text-slate-800">
        {label}
      </label>
      {children}
      {hint && (
        <p id={`${fieldId}-hint`} className="text-xs text-slate-600">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${fieldId}-error`} className="text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}

const describedBy = (fieldId: string, { error, hint }: Pick<Common, 'error' | 'hint'>) =>
  [error ? `${fieldId}-error` : null, hint ? `${fieldId}-hint` : null].filter(Boolean).join(' ') || undefined;

/** A labelled input whose error is announced and tied to it (aria-invalid, aria-describedby). */
export function TextField({ label, error, hint, id, ...input }: Common & InputHTMLAttributes<HTMLInputElement>) {
  const auto = useId();
  const fieldId = id ?? auto;
  return (
    <FieldFrame fieldId={fieldId} label={label} error={error} hint={hint}>
      <input
        id={fieldId}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(fieldId, { error, hint })}
        className={inputClass}
        {...input}
      />
    </FieldFrame>
  );
}

/**
 * A password input with a Show / Hide button instead of a second "confirm" field: the person can
 * see what they typed. The button's name says what it will do ("Show password", "Hide password").
 */
export function PasswordField({ label, error, hint, id, ...input }: Common & Omit<InputHTMLAttributes<HTMLInputElement>, 'type'>) {
  const auto = useId();
  const fieldId = id ?? auto;
  const [shown, setShown] = useState(false);
  return (
    <FieldFrame fieldId={fieldId} label={label} error={error} hint={hint}>
      <div className="relative">
        <input
          id={fieldId}
          type={shown ? 'text' : 'password'}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(fieldId, { error, hint })}
          className={`${inputClass} pe-20`}
          autoCapitalize="none"
          autoCorrect="off"
          spellCheck={false}
          {...input}
        />
        <button
          type="button"
          aria-controls={fieldId}
          onClick={() => setShown((v) => !v)}
          className={`absolute inset-y-1 end-1 min-w-16 rounded-md px-3 text-sm font-semibold text-indigo-700 hover:bg-indigo-50 ${focusRing}`}
        >
          {shown ? <Trans>Hide</Trans> : <Trans>Show</Trans>}
          <span className="sr-only"> {label.toLowerCase()}</span>
        </button>
      </div>
    </FieldFrame>
  );
}

export function SelectField({ label, error, id, children, ...select }: Common & SelectHTMLAttributes<HTMLSelectElement>) {
  const auto = useId();
  const fieldId = id ?? auto;
  return (
    <FieldFrame fieldId={fieldId} label={label} error={error}>
      <select
        id={fieldId}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(fieldId, { error })}
        className={inputClass}
        {...select}
      >
        {children}
      </select>
    </FieldFrame>
  );
}

/**
 * The centred card the sign-in, sign-up and confirmation screens sit in; its background fills the
 * screen below a 4rem header (`header`: the landing's top bar or the app's own).
 */
export function AuthCard({ children }: { children: ReactNode }) {
  return (
    <main id="main" className="flex min-h-[calc(100dvh-4rem)] items-start justify-center bg-slate-50 px-4 py-6 sm:items-center sm:py-10">
      <div className="w-full max-w-md rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">{children}</div>
    </main>
  );
}

/** The form-level error of a screen; always in the tree so screen readers announce it when it fills. */
export function FormAlert({ message }: { message: string | undefined }) {
  return (
    <p role="alert" className={message ? 'mt-4 rounded-lg bg-red-50 px-3 py-2 text-sm font-medium text-red-800' : 'sr-only'}>
      {message}
    </p>
  );
}
