import { useId, useMemo, useState, type FormEvent } from 'react';
import { LANGUAGE_CODES, LANGUAGES_MAX, languagesOfLocales } from '@parley/contract/languages';
import type { OwnProfile } from '@parley/contract/people';
import { focusRing, primaryButton } from '../../../components/ui/buttonStyles';
import { inputClass } from '../../../components/ui/Field';
import { languageName } from '../../../lib/languages';
import { countryName } from '../../../lib/countries';
import { describeApiError } from '../../../lib/apiError';
import { toast } from '../../../lib/toast';
import { useUpdateProfileMutation } from '../peopleApi';
import { sortedByName } from '../../../lib/displayNames';
import { Trans, useLingui } from '@lingui/react/macro';
import { msg } from '@lingui/core/macro';

const ADD_A_LANGUAGE = msg`Add a language…`;

/** Chips of languages with a list to add one: spoken or learnt. */
function LanguageChips({ label, value, onChange }: { label: string; value: string[]; onChange(next: string[]): void }) {
  const id = useId();
  const { i18n } = useLingui();
  // Names and their order follow the interface's language.
  const options = useMemo(() => sortedByName(LANGUAGE_CODES, languageName, i18n.locale), [i18n.locale]);
  return (
    <fieldset className="grid gap-2">
      <legend className="text-sm font-medium text-slate-800">{label}</legend>
      <ul className="flex flex-wrap gap-2" aria-label={label}>
        {value.map((l) => (
          <li key={l}>
            <button
              type="button"
              onClick={() => onChange(value.filter((x) => x !== l))}
              className={`inline-flex min-h-11 items-center gap-1 rounded-full bg-indigo-50 px-3 text-sm font-medium text-indigo-900 ring-1 ring-indigo-200 hover:bg-indigo-100 ${focusRing}`}
            >
              {languageName(l)}
              <span aria-hidden="true">×</span>
              <span className="sr-only">
                <Trans>(remove)</Trans>
              </span>
            </button>
          </li>
        ))}
      </ul>
      {value.length < LANGUAGES_MAX && (
        <>
          <label htmlFor={id} className="sr-only">
            <Trans>Add to: {label}</Trans>
          </label>
          <select id={id} value="" onChange={(e) => e.target.value && onChange([...value, e.target.value])} className={inputClass}>
            <option value="">{i18n._(ADD_A_LANGUAGE)}</option>
            {options
              .filter((l) => !value.includes(l))
              .map((l) => (
                <option key={l} value={l}>
                  {languageName(l)}
                </option>
              ))}
          </select>
        </>
      )}
    </fieldset>
  );
}

/**
 * The languages a person speaks (from the browser until they choose) and the ones they learn:
 * the chat prefers a shared language, and pairs people whose languages complement each other.
 */
export function LanguagesForm({ profile }: { profile: OwnProfile }) {
  const [save, { isLoading }] = useUpdateProfileMutation();
  const { t } = useLingui();
  const fromBrowser = profile.languages.length === 0;
  const [languages, setLanguages] = useState(() =>
    fromBrowser ? languagesOfLocales(typeof navigator === 'undefined' ? [] : navigator.languages) : profile.languages,
  );
  const [learning, setLearning] = useState(profile.learning);
  const [error, setError] = useState('');
  const hidden = profile.privateFields.includes('country');
  const country = profile.country ?? profile.detectedCountry ?? null;
  const countryLabel = country ? countryName(country) : '';

  async function submit(e: FormEvent) {
    e.preventDefault();
    const result = await save({ languages, learning });
    if ('error' in result) setError(describeApiError(result.error));
    else {
      setError('');
      toast({ title: t`Languages saved`, description: t`Your next chat uses them.` });
    }
  }

  return (
    <form onSubmit={(e) => void submit(e)} className="grid gap-4" noValidate data-testid="languages-form">
      <LanguageChips label={t`Languages I speak`} value={languages} onChange={setLanguages} />
      {fromBrowser && languages.length > 0 && (
        <p className="text-xs text-slate-600">
          <Trans>Suggested from your browser. Save to keep them.</Trans>
        </p>
      )}
      <LanguageChips label={t`Languages I am learning`} value={learning} onChange={setLearning} />
      <p className="text-sm text-slate-700">
        {country ? (
          <>
            {profile.country ? (
              <Trans>Your country: {countryLabel}.</Trans>
            ) : (
              <Trans>Your country: {countryLabel} (from your connection; choose another under About you).</Trans>
            )}{' '}
            {hidden ? (
              <Trans>Kept from strangers: it is used only for your own "near me" filter.</Trans>
            ) : (
              <Trans>Strangers you meet see it (never your city). Mark Country as for friends only to keep it to yourself.</Trans>
            )}
          </>
        ) : (
          <Trans>Parley does not know your country. Choose it under About you to meet people near you.</Trans>
        )}
      </p>
      {error && (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
      <button type="submit" className={primaryButton} disabled={isLoading}>
        {isLoading ? <Trans>Saving…</Trans> : <Trans>Save languages</Trans>}
      </button>
    </form>
  );
}
