import { useId, useMemo } from 'react';
import type { ChatFilters } from '@parley/contract/matchmaking';
import { COUNTRY_CODES } from '@parley/contract/countries';
import { LANGUAGE_CODES } from '@parley/contract/languages';
import { inputClass } from '../../../components/ui/Field';
import { languageName } from '../../../lib/languages';
import { countryName } from '../../../lib/countries';
import { sortedByName } from '../../../lib/displayNames';
import { Trans, useLingui } from '@lingui/react/macro';

/**
 * Who the user wants to meet by language and place: anyone (a shared language is preferred
 * anyway), only speakers of one language, and anywhere, near them (their country and its
 * neighbours) or one country. Free filters, like the others.
 */
export function LanguageCountryFilters({
  filters,
  disabled,
  onChange,
}: {
  filters: ChatFilters;
  disabled: boolean;
  onChange: (patch: Partial<ChatFilters>) => void;
}) {
  const id = useId();
  const { i18n, t } = useLingui();
  // Names and their order follow the interface's language.
  const languages = useMemo(() => sortedByName(LANGUAGE_CODES, languageName, i18n.locale), [i18n.locale]);
  const countries = useMemo(() => sortedByName(COUNTRY_CODES, countryName, i18n.locale), [i18n.locale]);
  const place = filters.nearMe ? 'near' : (filters.countries?.[0] ?? 'any');
  return (
    <>
      <div className="grid gap-1">
        <label htmlFor={`${id}-language`} className="text-sm font-semibold text-slate-900">
          <Trans>Speaks</Trans>
        </label>
        <select
          id={`${id}-language`}
          value={filters.languages?.[0] ?? ''}
          disabled={disabled}
          onChange={(e) => onChange({ languages: e.target.value ? [e.target.value] : [] })}
          className={inputClass}
        >
          <option value="">{t`Any language (a shared one first)`}</option>
          {languages.map((l) => {
            const language = languageName(l);
            return (
              <option key={l} value={l}>
                {t`Only ${language}`}
              </option>
            );
          })}
        </select>
      </div>
      <div className="grid gap-1">
        <label htmlFor={`${id}-place`} className="text-sm font-semibold text-slate-900">
          <Trans context="where someone is from">From</Trans>
        </label>
        <select
          id={`${id}-place`}
          value={place}
          disabled={disabled}
          onChange={(e) => {
            const v = e.target.value;
            onChange(v === 'near' ? { nearMe: true, countries: [] } : { nearMe: false, countries: v === 'any' ? [] : [v] });
          }}
          className={inputClass}
        >
          <option value="any">{t`Anywhere`}</option>
          <option value="near">{t`Near me (my country and its neighbours)`}</option>
          {countries.map((c) => (
            <option key={c} value={c}>
              {countryName(c)}
            </option>
          ))}
        </select>
      </div>
    </>
  );
}
