import type { I18n } from '@lingui/core';
import { minutesInWords } from '../../lib/i18n/duration';

/** How long a stream has run, in whole minutes: "42 min" or "1 h 5 min", in the interface language. */
export function timeLive(startedAt: number, i18n: I18n, until = Date.now()): string {
  return minutesInWords(Math.max(0, Math.floor((until - startedAt) / 60_000)), i18n);
}
