import { memo, useId } from 'react';
import { GENDER_FILTERS } from '@parley/contract/constants';
import type { ChatFilters } from '@parley/contract/matchmaking';
import { focusRing } from '../../../components/ui/buttonStyles';
import { inputClass } from '../../../components/ui/Field';
import { useAppDispatch, useAppSelector } from '../../../store/hooks';
import { changeAutomaticReconnect } from '../../../realtime/roomConnection';
import { searchPreferencesActions } from '../../../realtime/searchPreferences';
import { AgeRange } from './AgeRange';
import { TopicChips } from './TopicChips';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { LanguageCountryFilters } from './LanguageCountryFilters';

const genderLabels: Record<ChatFilters['gender'], MessageDescriptor> = {
  All: msg`Everyone`,
  male: msg`Men`,
  female: msg`Women`,
  other: msg`Other`,
};

/**
 * Who the user wants to meet. Saved on the device (redux-persist) and sent with every Start.
 * Memoised: it reads its own state, and the chat beside it renders at every message.
 */
export const FilterPanel = memo(function FilterPanel({ locked }: { locked: boolean }) {
  const id = useId();
  const { i18n } = useLingui();
  const dispatch = useAppDispatch();
  const filters = useAppSelector((s) => s.searchPreferences.chatFilters);
  const suggestions = useAppSelector((s) => s.chat.mostPopularTopics);
  const automaticReconnect = useAppSelector((s) => s.searchPreferences.automaticReconnect);
  const update = (patch: Partial<ChatFilters>) => dispatch(searchPreferencesActions.setChatFilters({ ...filters, ...patch }));

  return (
    <section aria-labelledby={`${id}-title`} className="grid gap-5">
      <div className="flex items-baseline justify-between">
        <h2 id={`${id}-title`} className="text-lg font-bold text-slate-900">
          <Trans>Who would you like to meet?</Trans>
        </h2>
        <button
          type="button"
          disabled={locked}
          onClick={() => dispatch(searchPreferencesActions.resetChatFilters())}
          className={`rounded text-sm font-medium text-indigo-700 underline-offset-2 hover:underline disabled:opacity-50 ${focusRing}`}
        >
          <Trans>Reset</Trans>
        </button>
      </div>
      {locked && (
        <p className="-mt-3 text-xs text-slate-600">
          <Trans>Filters apply to your next search.</Trans>
        </p>
      )}
      <TopicChips topics={filters.topics} suggestions={suggestions} disabled={locked} onChange={(topics) => update({ topics })} />
      <div className="grid gap-1">
        <label htmlFor={`${id}-gender`} className="text-sm font-semibold text-slate-900">
          <Trans>Show me</Trans>
        </label>
        <select
          id={`${id}-gender`}
          value={filters.gender}
          disabled={locked}
          onChange={(e) => update({ gender: e.target.value as ChatFilters['gender'] })}
          className={inputClass}
        >
          {GENDER_FILTERS.map((g) => (
            <option key={g} value={g}>
              {i18n._(genderLabels[g])}
            </option>
          ))}
        </select>
      </div>
      <AgeRange value={filters.ageRange} disabled={locked} onChange={(ageRange) => update({ ageRange })} />
      <LanguageCountryFilters filters={filters} disabled={locked} onChange={update} />
      <label className="flex cursor-pointer items-start gap-3">
        <input
          type="checkbox"
          role="switch"
          checked={automaticReconnect}
          onChange={(e) => dispatch(changeAutomaticReconnect(e.target.checked))}
          className={`mt-0.5 size-5 shrink-0 accent-indigo-700 ${focusRing}`}
        />
        <span className="grid">
          <span className="text-sm font-semibold text-slate-900">
            <Trans>Find someone new automatically</Trans>
          </span>
          <span className="text-xs text-slate-600">
            <Trans>When a stranger leaves, search again at once.</Trans>
          </span>
        </span>
      </label>
    </section>
  );
});
