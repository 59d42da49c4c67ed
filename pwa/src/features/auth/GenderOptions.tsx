import { GENDERS } from '@parley/contract/constants';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';

const genderLabel = { male: msg`Male`, female: msg`Female`, other: msg`Other` } as const;

/** The gender choices of the sign-up and confirm-account forms, with an empty first choice. */
export function GenderOptions() {
  const { i18n } = useLingui();
  return (
    <>
      <option value="">{i18n._(msg`Choose…`)}</option>
      {GENDERS.map((g) => (
        <option key={g} value={g}>
          {i18n._(genderLabel[g])}
        </option>
      ))}
    </>
  );
}
