import { useEffect, useState } from 'react';
import type { I18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';
import { minutesInWords } from '../../lib/i18n/duration';

/** How often the remaining time is worked out again: the line counts down in whole minutes. */
const TICK_MS = 15_000;

/** "Muted for 58 min" (or "Muted for 2 h 5 min") from the remaining time, in the interface language; null once it has ended. */
export function mutedLine(mutedUntil: number | null, now: number, i18n: I18n): string | null {
  if (mutedUntil === null || mutedUntil <= now) return null;
  const span = minutesInWords(Math.ceil((mutedUntil - now) / 60_000), i18n, 60);
  return i18n._(msg`Muted for ${span}. You can read along; you can write again when it ends.`);
}

/** The muted line of the composer, kept up to date while the mute runs. */
export function useMutedLine(mutedUntil: number | null): string | null {
  const { i18n } = useLingui();
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (mutedUntil === null) return;
    const tick = () => setNow(Date.now());
    // A mute told live counts from now, not from when the page opened.
    const first = setTimeout(tick, 0);
    const timer = setInterval(tick, TICK_MS);
    return () => {
      clearTimeout(first);
      clearInterval(timer);
    };
  }, [mutedUntil]);
  return mutedLine(mutedUntil, now, i18n);
}
