import { useMemo } from 'react';
import { LANGUAGE_CODES } from '@parley/contract/languages';
import { inputClass, SelectField } from '../../components/FormField';
import { languageName } from '../../lib/languages';

/**
 * The room list's language: '' for the person's own languages (the server's default), `any`, or
 * one language. `mine` names the languages the server used for the default.
 */
export function RoomLanguageSelect({ value, mine, onChange }: { value: string; mine: string[]; onChange(next: string): void }) {
  const options = useMemo(() => [...LANGUAGE_CODES].sort((a, b) => languageName(a).localeCompare(languageName(b))), []);
  return (
    <div className="grid gap-1">
      <label htmlFor="room-language" className="text-sm font-medium text-slate-800">
        Room language
      </label>
      <select id="room-language" value={value} onChange={(e) => onChange(e.target.value)} className={inputClass}>
        <option value="">{mine.length > 0 ? `My languages (${mine.map(languageName).join(', ')})` : 'My languages'}</option>
        <option value="any">Any language</option>
        {options.map((l) => (
          <option key={l} value={l}>
            {languageName(l)}
          </option>
        ))}
      </select>
    </div>
  );
}

/** The language a new room is held in (optional), for the create form. */
export function RoomLanguageField({ error }: { error?: string | undefined }) {
  const options = useMemo(() => [...LANGUAGE_CODES].sort((a, b) => languageName(a).localeCompare(languageName(b))), []);
  return (
    <SelectField label="Room language" name="language" defaultValue="" error={error}>
      <option value="">Not said</option>
      {options.map((l) => (
        <option key={l} value={l}>
          {languageName(l)}
        </option>
      ))}
    </SelectField>
  );
}
