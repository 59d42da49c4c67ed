import { useState, type FormEvent } from 'react';
import { GENDER_FILTERS, MAX_AGE, MIN_AGE } from '@parley/contract/constants';
import type { Settings } from '@parley/contract/people';
import { SelectField, TextField } from '../../../components/ui/Field';
import { describeApiError } from '../../../lib/apiError';
import { toast } from '../../../lib/toast';
import { useUpdateSettingsMutation } from '../peopleApi';
import { smallPrimary } from '../components/Section';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';

/** The filters a new search starts with on any device. */
const genderFilterLabel = { All: msg`Anyone`, male: msg`Male`, female: msg`Female`, other: msg`Other` } as const;

export function ChatDefaults({ settings }: { settings: Settings }) {
  const { i18n, t } = useLingui();
  const [save, { isLoading }] = useUpdateSettingsMutation();
  const [f, setF] = useState({ ...settings.chatFilters, topicsText: settings.chatFilters.topics.join(', ') });
  const [error, setError] = useState('');

  async function submit(e: FormEvent) {
    e.preventDefault();
    const topics = f.topicsText
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean);
    const r = await save({ chatFilters: { gender: f.gender, minAge: f.minAge, maxAge: f.maxAge, topics } });
    if ('error' in r) return setError(describeApiError(r.error));
    setError('');
    toast({ title: t`Chat defaults saved` });
  }

  return (
    <form onSubmit={(e) => void submit(e)} className="grid gap-4 sm:grid-cols-2" noValidate>
      <SelectField
        label={t`Partner's gender`}
        value={f.gender}
        onChange={(e) => setF({ ...f, gender: e.target.value as Settings['chatFilters']['gender'] })}
      >
        {GENDER_FILTERS.map((g) => (
          <option key={g} value={g}>
            {i18n._(genderFilterLabel[g])}
          </option>
        ))}
      </SelectField>
      <TextField label={t`Topics (comma separated)`} value={f.topicsText} onChange={(e) => setF({ ...f, topicsText: e.target.value })} />
      <TextField
        label={t`Youngest age`}
        type="number"
        inputMode="numeric"
        min={MIN_AGE}
        max={MAX_AGE}
        value={f.minAge}
        onChange={(e) => setF({ ...f, minAge: Number(e.target.value) })}
      />
      <TextField
        label={t`Oldest age`}
        type="number"
        inputMode="numeric"
        min={MIN_AGE}
        max={MAX_AGE}
        value={f.maxAge}
        onChange={(e) => setF({ ...f, maxAge: Number(e.target.value) })}
      />
      {error && (
        <p role="alert" className="text-sm text-red-700 sm:col-span-2">
          {error}
        </p>
      )}
      <div className="sm:col-span-2">
        <button type="submit" className={smallPrimary} disabled={isLoading}>
          <Trans>Save chat defaults</Trans>
        </button>
      </div>
    </form>
  );
}
