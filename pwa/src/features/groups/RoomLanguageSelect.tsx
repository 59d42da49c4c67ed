import { useMemo } from 'react';
import { LANGUAGE_CODES } from '@parley/contract/languages';
import { SelectField } from '../../components/ui/Field';
import { languageName } from '../../lib/languages';
import { sortedByName } from '../../lib/displayNames';
import { useLingui } from '@lingui/react/macro';

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
    <SelectField id="room-language" label={t`Room language`} value={value} onChange={(e) => onChange(e.target.value)}>
      <option value="">{mine.length > 0 ? t`My languages (${languages})` : t`My languages`}</option>
      <option value="any">{t`Any language`}</option>
      {options.map((l) => (
        <option key={l} value={l}>
          {languageName(l)}
        </option>
      ))}
    </SelectField>
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
