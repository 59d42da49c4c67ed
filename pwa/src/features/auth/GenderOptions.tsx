import { GENDERS } from '@parley/contract/constants';

const genderLabel = { male: 'Male', female: 'Female', other: 'Other' } as const;

/** The gender choices of the sign-up and confirm-account forms, with an empty first choice. */
export function GenderOptions() {
  return (
    <>
      <option value="">Choose…</option>
      {GENDERS.map((g) => (
        <option key={g} value={g}>
          {genderLabel[g]}
        </option>
      ))}
    </>
  );
}
