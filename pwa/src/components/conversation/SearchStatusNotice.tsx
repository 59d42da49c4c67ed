import type { ChatFilters } from '@parley/contract/chat';
import { MAX_AGE, MIN_AGE } from '@parley/contract/constants';
import type { RoomState } from '../../realtime/roomState';
import { focusRing } from '../FormField';
import { widestFilters } from '../../realtime/widenFilters';
import { languageName } from '../../lib/languages';
import { countryName } from '../../lib/countries';

const genderWords: Record<ChatFilters['gender'], string> = {
  All: 'everyone',
  male: 'men',
  female: 'women',
  other: 'people of other genders',
};
const people = (n: number) => (n === 1 ? '1 person' : `${n} people`);

function describeFilters(f: ChatFilters): string {
  const ages = f.ageRange.minAge <= MIN_AGE && f.ageRange.maxAge >= MAX_AGE ? 'any age' : `${f.ageRange.minAge} to ${f.ageRange.maxAge}`;
  const parts = [genderWords[f.gender], ages];
  if (f.languages?.length) parts.push(`speaking ${f.languages.map(languageName).join(' or ')}`);
  if (f.nearMe) parts.push('near you');
  if (f.countries?.length) parts.push(`from ${f.countries.map(countryName).join(' or ')}`);
  return parts.join(', ');
}

/**
 * How a search stands, as the server said a few seconds into it: how many people are online and
 * searching, and, when nobody online fits the filters, that and a one-tap way to widen them.
 */
export function SearchStatusNotice({
  status,
  filters,
  onWiden,
  tone = 'light',
}: {
  status: RoomState['searchStatus'];
  filters: ChatFilters;
  onWiden: () => void;
  tone?: 'light' | 'dark';
}) {
  if (!status) return null;
  const dark = tone === 'dark';
  const counts = `${status.online <= 1 ? 'Only you are online' : `${people(status.online)} online`} now · ${status.searching} searching`;
  const nobodyFits = status.fitting === 0 || status.languageFitting === 0 || status.countryFitting === 0;
  const placeOrLanguage = !!(filters.languages?.length || filters.countries?.length || filters.nearMe);
  return (
    <div
      role="status"
      data-testid="search-status"
      className={`grid w-full max-w-md gap-2 rounded-xl px-4 py-3 text-left text-sm ${
        nobodyFits
          ? dark
            ? 'bg-amber-950/90 text-amber-50'
            : 'border border-amber-300 bg-amber-50 text-amber-950'
          : dark
            ? 'bg-slate-900/85 text-slate-100'
            : 'bg-white text-slate-800 ring-1 ring-slate-200'
      }`}
    >
      {nobodyFits && widestFilters(filters) && (
        <p className="font-semibold">Nobody else is online right now. Stay here: you will be matched as soon as someone arrives.</p>
      )}
      {nobodyFits && !widestFilters(filters) && (
        <>
          <p className="font-semibold">Nobody online right now fits your filters ({describeFilters(filters)}).</p>
          <button
            type="button"
            onClick={onWiden}
            className={`justify-self-start rounded-lg px-4 py-2.5 text-base font-semibold ${
              dark ? 'bg-amber-300 text-amber-950 hover:bg-amber-200' : 'bg-amber-700 text-white hover:bg-amber-800'
            } ${focusRing}`}
          >
            {placeOrLanguage ? 'Meet anyone, anywhere, any language' : 'Meet anyone, any age'}
          </button>
        </>
      )}
      {!nobodyFits && status.searching === 0 && (
        <p>
          {people(status.fitting)} online {status.fitting === 1 ? 'fits' : 'fit'} your filters; nobody is searching yet. You will be matched
          as soon as someone starts.
        </p>
      )}
      <p className={dark ? 'text-slate-300' : 'text-slate-600'}>{counts}</p>
    </div>
  );
}
