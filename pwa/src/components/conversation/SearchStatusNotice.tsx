import { RECENT_PARTNERS, type ChatFilters } from '@parley/contract/matchmaking';
import { MAX_AGE, MIN_AGE } from '@parley/contract/constants';
import type { RoomState } from '../../realtime/roomState';
import { focusRing } from '../ui/buttonStyles';
import { widestFilters } from '../../realtime/widenFilters';
import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { languageName } from '../../lib/languages';
import { countryName } from '../../lib/countries';

const genderWords: Record<ChatFilters['gender'], MessageDescriptor> = {
  All: msg`everyone`,
  male: msg`men`,
  female: msg`women`,
  other: msg`people of other genders`,
};

function describeFilters(f: ChatFilters, i18n: I18n): string {
  const { minAge, maxAge } = f.ageRange;
  const who = i18n._(genderWords[f.gender]);
  const parts = [minAge <= MIN_AGE && maxAge >= MAX_AGE ? i18n._(msg`${who}, any age`) : i18n._(msg`${who}, ${minAge} to ${maxAge}`)];
  const either = (items: string[]) => new Intl.ListFormat(i18n.locale, { type: 'disjunction' }).format(items);
  if (f.languages?.length) {
    const languages = either(f.languages.map(languageName));
    parts.push(i18n._(msg`speaking ${languages}`));
  }
  if (f.nearMe) parts.push(i18n._(msg`near you`));
  if (f.countries?.length) {
    const countries = either(f.countries.map(countryName));
    parts.push(i18n._(msg`from ${countries}`));
  }
  // Arabic and Japanese have commas of their own (، 、), as "{who}, any age" already shows.
  return parts.join(i18n._(msg({ message: ', ', context: 'between the parts of who the search looks for' })));
}

/**
 * How a search stands, as the server said a few seconds into it: how many people are online and
 * searching, and, when nobody online fits the filters, that and a one-tap way to widen them. With
 * few searching, the one searching may be a recent partner: `onMeetAgain` (when there is one to
 * meet again) offers to meet them without this side's pause; `meetAgainAsked` says it was asked.
 */
export function SearchStatusNotice({
  status,
  filters,
  onWiden,
  onMeetAgain,
  meetAgainAsked = false,
  tone = 'light',
}: {
  status: RoomState['searchStatus'];
  filters: ChatFilters;
  onWiden: () => void;
  onMeetAgain?: (() => void) | undefined;
  meetAgainAsked?: boolean;
  tone?: 'light' | 'dark';
}) {
  const { i18n } = useLingui();
  if (!status) return null;
  const dark = tone === 'dark';
  const { online, searching, fitting } = status;
  const nobodyFits = fitting === 0 || status.languageFitting === 0 || status.countryFitting === 0;
  // Someone who fits is searching, yet no match came: with this few, most likely a recent partner,
  // whom the matcher offers again only after RECENT_PARTNER_COOLDOWN_MS.
  const fewWaiting = !nobodyFits && searching > 0 && searching <= RECENT_PARTNERS;
  const placeOrLanguage = !!(filters.languages?.length || filters.countries?.length || filters.nearMe);
  return (
    <div
      role="status"
      data-testid="search-status"
      className={`grid w-full max-w-md gap-2 rounded-xl px-4 py-3 text-start text-sm ${
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
        <p className="font-semibold">
          <Trans>Nobody else is online right now. Stay here: you will be matched as soon as someone arrives.</Trans>
        </p>
      )}
      {nobodyFits && !widestFilters(filters) && (
        <>
          <p className="font-semibold">
            <Trans>Nobody online right now fits your filters ({describeFilters(filters, i18n)}).</Trans>
          </p>
          <button
            type="button"
            onClick={onWiden}
            className={noticeAction(dark ? 'bg-amber-300 text-amber-950 hover:bg-amber-200' : 'bg-amber-700 text-white hover:bg-amber-800')}
          >
            {placeOrLanguage ? <Trans>Meet anyone, anywhere, any language</Trans> : <Trans>Meet anyone, any age</Trans>}
          </button>
        </>
      )}
      {!nobodyFits && searching === 0 && (
        <p>
          <Trans>
            <Plural value={fitting} one="# person online fits your filters" other="# people online fit your filters" />; nobody is searching
            yet. You will be matched as soon as someone starts.
          </Trans>
        </p>
      )}
      {fewWaiting && (
        <div data-testid="few-online" className="grid gap-2">
          <p>
            <Trans>
              Few people are online right now, so the one searching may be someone you just talked to. Stay, and you will meet them again in
              a few seconds if nobody new arrives.
            </Trans>
          </p>
          {meetAgainAsked ? (
            <p className="font-semibold">
              <Trans>You asked to meet them again: it happens as soon as they are searching and ready too.</Trans>
            </p>
          ) : (
            onMeetAgain && (
              <button
                type="button"
                onClick={onMeetAgain}
                className={noticeAction(
                  dark ? 'bg-indigo-300 text-indigo-950 hover:bg-indigo-200' : 'bg-indigo-700 text-white hover:bg-indigo-800',
                )}
              >
                <Trans>Meet them again</Trans>
              </button>
            )
          )}
        </div>
      )}
      <p className={dark ? 'text-slate-300' : 'text-slate-600'}>
        {online <= 1 ? (
          <Trans>
            Only you are online now · <Plural value={searching} _0="nobody else searching" one="# searching" other="# searching" />
          </Trans>
        ) : (
          <Trans>
            <Plural value={online} one="# person online now" other="# people online now" /> ·{' '}
            <Plural value={searching} _0="nobody else searching" one="# searching" other="# searching" />
          </Trans>
        )}
      </p>
    </div>
  );
}

/** A notice's one action button, in the notice's colours. */
function noticeAction(colours: string) {
  return `justify-self-start rounded-lg px-4 py-2.5 text-base font-semibold ${colours} ${focusRing}`;
}
