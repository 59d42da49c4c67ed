import type { ChatFilters } from '@parley/contract/matchmaking';
import { MAX_AGE, MIN_AGE } from '@parley/contract/constants';

/** The filters at their widest: anyone, any age, any language, anywhere (topics never stop a match: the search falls back). */
export function widestFilters(filters: ChatFilters): boolean {
  return (
    filters.gender === 'All' &&
    filters.ageRange.minAge <= MIN_AGE &&
    filters.ageRange.maxAge >= MAX_AGE &&
    !filters.languages?.length &&
    !filters.countries?.length &&
    !filters.nearMe
  );
}

/** The same filters opened to anyone of any age, language and country; topics stay (they are only a preference). */
export function widened(filters: ChatFilters): ChatFilters {
  return { ...filters, gender: 'All', ageRange: { minAge: MIN_AGE, maxAge: MAX_AGE }, languages: [], countries: [], nearMe: false };
}
