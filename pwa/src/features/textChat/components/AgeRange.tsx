import { useId } from 'react';
import { MAX_AGE, MIN_AGE } from '@parley/contract/constants';
import './ageRange.css';
import { Trans, useLingui } from '@lingui/react/macro';

export type AgeRangeValue = { minAge: number; maxAge: number };

/** A two-thumb age range (18–99): two labelled native sliders, so keyboards and screen readers just work. */
export function AgeRange({
  value,
  disabled,
  onChange,
}: {
  value: AgeRangeValue;
  disabled?: boolean;
  onChange: (v: AgeRangeValue) => void;
}) {
  const id = useId();
  const { t } = useLingui();
  const span = MAX_AGE - MIN_AGE;
  const left = ((value.minAge - MIN_AGE) / span) * 100;
  const right = ((value.maxAge - MIN_AGE) / span) * 100;
  return (
    <fieldset className="grid gap-2" disabled={disabled}>
      <legend className="flex w-full justify-between text-sm font-semibold text-slate-900">
        <span>
          <Trans>Age</Trans>
        </span>
        <output htmlFor={`${id}-min ${id}-max`} className="font-normal text-slate-700">
          {value.minAge} – {value.maxAge}
          {value.maxAge === MAX_AGE ? '+' : ''}
        </output>
      </legend>
      <div className="age-range relative mx-2 h-8">
        <div aria-hidden="true" className="absolute inset-x-0 top-1/2 h-1.5 -translate-y-1/2 rounded-full bg-slate-300" />
        <div
          aria-hidden="true"
          className="absolute top-1/2 h-1.5 -translate-y-1/2 rounded-full bg-indigo-700"
          // From the inline start, as the range inputs run (right to left in Arabic).
          style={{ insetInlineStart: `${left}%`, insetInlineEnd: `${100 - right}%` }}
        />
        <label htmlFor={`${id}-min`} className="sr-only">
          <Trans>Minimum age</Trans>
        </label>
        <input
          id={`${id}-min`}
          type="range"
          min={MIN_AGE}
          max={MAX_AGE}
          step={1}
          value={value.minAge}
          aria-valuetext={t`${value.minAge} years`}
          // The lower thumb stays reachable when both meet at the top end.
          style={{ zIndex: value.minAge > MAX_AGE - 10 ? 2 : 1 }}
          onChange={(e) => onChange({ minAge: Math.min(Number(e.target.value), value.maxAge), maxAge: value.maxAge })}
        />
        <label htmlFor={`${id}-max`} className="sr-only">
          <Trans>Maximum age</Trans>
        </label>
        <input
          id={`${id}-max`}
          type="range"
          min={MIN_AGE}
          max={MAX_AGE}
          step={1}
          value={value.maxAge}
          aria-valuetext={t`${value.maxAge} years`}
          onChange={(e) => onChange({ minAge: value.minAge, maxAge: Math.max(Number(e.target.value), value.minAge) })}
        />
      </div>
    </fieldset>
  );
}
