import { useId, useState } from 'react';
import { HOBBIES_MAX, HOBBY_MAX_CHARS } from '@parley/contract/people';
import { inputClass } from '../../../components/ui/Field';
import { ChipList } from '../../../components/ChipList';
import { secondaryButton } from './Section';
import { Trans, useLingui } from '@lingui/react/macro';

/** Hobbies as chips: type one and press Enter or Add; each chip has its own remove button. */
export function HobbyChips({ value, onChange }: { value: string[]; onChange(next: string[]): void }) {
  const [draft, setDraft] = useState('');
  const [error, setError] = useState('');
  const id = useId();
  const full = value.length >= HOBBIES_MAX;
  const { t } = useLingui();
  const count = value.length;

  function add() {
    const h = draft.trim();
    if (!h) return;
    if (value.some((v) => v.toLowerCase() === h.toLowerCase())) return setError(t`${h} is already there.`);
    if (full) return setError(t`At most ${HOBBIES_MAX} hobbies.`);
    onChange([...value, h]);
    setDraft('');
    setError('');
  }

  return (
    <div className="grid gap-1.5">
      <label htmlFor={id} className="text-sm font-medium text-slate-800">
        <Trans>
          Hobbies ({count} of {HOBBIES_MAX})
        </Trans>
      </label>
      <ChipList
        label={t`Your hobbies`}
        items={value}
        removeLabel={(h) => t`Remove ${h}`}
        onRemove={(h) => onChange(value.filter((v) => v !== h))}
      />
      <div className="flex gap-2">
        <input
          id={id}
          className={inputClass}
          value={draft}
          maxLength={HOBBY_MAX_CHARS}
          disabled={full}
          placeholder={full ? t`Remove one to add another` : t`e.g. climbing`}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={(e) => {
            if (e.key !== 'Enter') return;
            e.preventDefault();
            add();
          }}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
        />
        <button type="button" className={secondaryButton} onClick={add} disabled={full}>
          <Trans>Add</Trans>
        </button>
      </div>
      {error && (
        <p id={`${id}-error`} className="text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}
