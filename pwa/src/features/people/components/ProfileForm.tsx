import { useId, useMemo, useState, type FormEvent } from 'react';
import { COUNTRY_CODES } from '@parley/contract/countries';
import {
  DESCRIPTION_MAX,
  PRIVATE_FIELDS,
  profileUpdateSchema,
  type OwnProfile,
  type PrivateField,
  type ProfileUpdate,
} from '@parley/contract/people';
import { inputClass, SelectField } from '../../../components/ui/Field';
import { primaryButton } from '../../../components/ui/buttonStyles';
import { GENDERS } from '@parley/contract/constants';
import { ProfileCard } from '../../../components/people/ProfileCard';
import { countryName } from '../../../lib/countries';
import { sortedByName } from '../../../lib/displayNames';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { describeApiError } from '../../../lib/apiError';
import { toast } from '../../../lib/toast';
import { useUpdateProfileMutation } from '../peopleApi';
import { HobbyChips } from './HobbyChips';

const FIELD_LABELS = {
  age: msg`Age`,
  gender: msg`Gender`,
  country: msg`Country`,
  description: msg`About me`,
  hobbies: msg`Hobbies`,
} satisfies Record<PrivateField, unknown>;
const GENDER_LABELS = { male: msg`Male`, female: msg`Female`, other: msg`Other` } as const;

/** What strangers see: the card without the fields kept for friends. */
function strangersView(
  p: OwnProfile,
  draft: Required<Omit<ProfileUpdate, 'country' | 'languages' | 'learning'>> & { country: string | null },
) {
  const hidden = new Set(draft.privateFields);
  return {
    username: p.username,
    avatar: p.avatar,
    premiumUser: p.premiumUser,
    rating: p.rating,
    createdAt: p.createdAt,
    gender: hidden.has('gender') ? undefined : draft.gender,
    age: hidden.has('age') ? undefined : p.age,
    country: hidden.has('country') ? undefined : draft.country,
    description: hidden.has('description') ? undefined : draft.description,
    hobbies: hidden.has('hobbies') ? undefined : draft.hobbies,
  };
}

/** About me, hobbies, gender, country and what stays for friends, with a live preview of the card. */
export function ProfileForm({ profile }: { profile: OwnProfile }) {
  const [save, { isLoading }] = useUpdateProfileMutation();
  const { i18n, t } = useLingui();
  // Country names and their order follow the interface's language.
  const countries = useMemo(() => sortedByName(COUNTRY_CODES, countryName, i18n.locale), [i18n.locale]);
  const [draft, setDraft] = useState({
    description: profile.description,
    hobbies: profile.hobbies,
    gender: profile.gender ?? 'other',
    country: profile.country,
    privateFields: profile.privateFields,
  });
  const [error, setError] = useState('');
  const descId = useId();

  async function submit(e: FormEvent) {
    e.preventDefault();
    const parsed = profileUpdateSchema.safeParse(draft);
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? t`Check the form.`);
    setError('');
    const result = await save(parsed.data);
    if ('error' in result) setError(describeApiError(result.error));
    else toast({ title: t`Profile saved`, description: t`Your card shows the changes now.` });
  }

  const [used, max] = [i18n.number(draft.description.length), i18n.number(DESCRIPTION_MAX)];
  const togglePrivate = (f: PrivateField, on: boolean) =>
    setDraft((d) => ({ ...d, privateFields: on ? [...d.privateFields, f] : d.privateFields.filter((x) => x !== f) }));

  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <form onSubmit={(e) => void submit(e)} className="grid gap-4" noValidate>
        <div className="grid gap-1.5">
          <label htmlFor={descId} className="text-sm font-medium text-slate-800">
            <Trans>About me</Trans>
          </label>
          <textarea
            id={descId}
            rows={4}
            className={inputClass}
            value={draft.description}
            maxLength={DESCRIPTION_MAX}
            onChange={(e) => setDraft((d) => ({ ...d, description: e.target.value }))}
            aria-describedby={`${descId}-count`}
          />
          <p id={`${descId}-count`} className="text-xs text-slate-700">
            <Trans>
              {used} of {max} characters
            </Trans>
          </p>
        </div>
        <HobbyChips value={draft.hobbies} onChange={(hobbies) => setDraft((d) => ({ ...d, hobbies }))} />
        <SelectField
          label={t`Gender`}
          value={draft.gender}
          onChange={(e) => setDraft((d) => ({ ...d, gender: e.target.value as typeof d.gender }))}
        >
          {GENDERS.map((g) => (
            <option key={g} value={g}>
              {i18n._(GENDER_LABELS[g])}
            </option>
          ))}
        </SelectField>
        <SelectField
          label={t`Country`}
          value={draft.country ?? ''}
          onChange={(e) => setDraft((d) => ({ ...d, country: e.target.value || null }))}
        >
          <option value="">{t`Not shown`}</option>
          {countries.map((c) => (
            <option key={c} value={c}>
              {countryName(c)}
            </option>
          ))}
        </SelectField>
        <fieldset className="grid gap-2">
          <legend className="text-sm font-medium text-slate-800">
            <Trans>Shown to friends only</Trans>
          </legend>
          <div className="flex flex-wrap gap-x-4 gap-y-2">
            {PRIVATE_FIELDS.map((f) => (
              <label key={f} className="inline-flex min-h-11 items-center gap-2 text-sm text-slate-800">
                <input
                  type="checkbox"
                  className="size-5 accent-indigo-700"
                  checked={draft.privateFields.includes(f)}
                  onChange={(e) => togglePrivate(f, e.target.checked)}
                />
                {i18n._(FIELD_LABELS[f])}
              </label>
            ))}
          </div>
        </fieldset>
        {error && (
          <p role="alert" className="text-sm text-red-700">
            {error}
          </p>
        )}
        <button type="submit" className={primaryButton} disabled={isLoading}>
          {isLoading ? t`Saving…` : t`Save profile`}
        </button>
      </form>
      <div>
        <h3 className="mb-2 text-sm font-semibold text-slate-800">
          <Trans>How strangers see your card</Trans>
        </h3>
        <ProfileCard profile={strangersView(profile, draft)} headingLevel={3} />
      </div>
    </div>
  );
}
