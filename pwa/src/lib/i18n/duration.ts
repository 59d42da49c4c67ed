import type { I18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';

/** Whole minutes as people read them: "42 min" up to `minutesUpTo`, then "1 h 5 min" or "24 h". */
export function minutesInWords(minutes: number, i18n: I18n, minutesUpTo = 59): string {
  if (minutes <= minutesUpTo) return i18n._(msg`${minutes} min`);
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest ? i18n._(msg`${hours} h ${rest} min`) : i18n._(msg`${hours} h`);
}

/**
 * How long something lasted, to the second under an hour: "less than a minute", "1 min 30 s",
 * "12 min", "2 h 5 min", in the interface language.
 */
export function durationInWords(ms: number, i18n: I18n): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  if (total < 60) return i18n._(msg`less than a minute`);
  const minutes = Math.floor(total / 60);
  const seconds = total % 60;
  if (minutes >= 60 || seconds === 0) return minutesInWords(minutes, i18n);
  return i18n._(msg`${minutes} min ${seconds} s`);
}
