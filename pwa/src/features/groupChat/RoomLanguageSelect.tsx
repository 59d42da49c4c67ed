import { useMemo } from 'react';
import { LANGUAGE_CODES } from '@parley/contract/languages';
import { inputClass, SelectField } from '../../components/FormField';
import { languageName } from '../../lib/languages';
import { sortedByName } from '../../lib/displayNames';
import { Trans, useLingui } from '@lingui/react/macro';

/**
 * The room list's language: '' for the person's own languages (the server's default), `any`, or
 * one language. `mine` names the languages the server used for the default.
 */
export function RoomLanguageSelect({ value, mine, onChange }: { value: string; mine: string[]; onChange(next: string): void }) {
  const { i18n, t } = useLingui();
  // Names and their order follow the interface's language.
  const options = useMemo(() => sortedByName(LANGUAGE_CODES, languageName, i18n.locale), [i18n.locale]);
  const languages = new Intl.ListFormat(i18n.locale === 'en-XA' ? 'en' : i18n.locale, { type: 'unit' }).format(mine.map(languageName));
  return (
    <div className="grid gap-1">
      <label htmlFor="room-language" className="text-sm font-medium text-slate-800">
        <Trans>Room language</Trans>
      </label>
      <select id="room-language" value={value} onChange={(e) => onChange(e.target.value)} className={inputClass}>
        <option value="">{mine.length > 0 ? t`My languages (${languages})` : t`My languages`}</option>
        <option value="any">{t`Any language`}</option>
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
  const { i18n, t } = useLingui();
  const options = useMemo(() => sortedByName(LANGUAGE_CODES, languageName, i18n.locale), [i18n.locale]);
  return (
    <SelectField label={t`Room language`} name="language" defaultValue="" error={error}>
      <option value="">{t`Not said`}</option>
      {options.map((l) => (
        <option key={l} value={l}>
          {languageName(l)}
        </option>
      ))}
    </SelectField>
  );
}
