import { CALENDAR_DAYS } from '@parley/contract/missions';
import { useLingui } from '@lingui/react/macro';

const DAY_MS = 86_400_000;
/** A Monday, from which the week's short day names are taken (in the interface language). */
const MONDAY = Date.UTC(2024, 0, 1);

/** The last CALENDAR_DAYS local dates ending today, in weeks from Monday: visited, frozen or missed. */
export function StreakCalendar({ today, visited, frozen }: { today: string; visited: string[]; frozen: string[] }) {
  const { t, i18n } = useLingui();
  const locale = i18n.locale === 'en-XA' ? 'en' : i18n.locale || 'en';
  const dayFormat = new Intl.DateTimeFormat(locale, { weekday: 'short', month: 'short', day: 'numeric', timeZone: 'UTC' });
  const weekday = new Intl.DateTimeFormat(locale, { weekday: 'short', timeZone: 'UTC' });
  const weekdays = Array.from({ length: 7 }, (_, i) => weekday.format(MONDAY + i * DAY_MS));
  const end = Date.parse(`${today}T00:00:00Z`);
  const days = Array.from({ length: CALENDAR_DAYS }, (_, i) => new Date(end - (CALENDAR_DAYS - 1 - i) * DAY_MS));
  const lead = (days[0]!.getUTCDay() + 6) % 7;
  const seen = new Set(visited);
  const cold = new Set(frozen);
  return (
    <div className="mt-4">
      {/* Day names come from Intl in the interface language, like dates in <time>. */}
      <div className="grid grid-cols-7 gap-1.5 text-center text-xs font-semibold text-slate-700" aria-hidden="true">
        {weekdays.map((d) => (
          <span key={d}>{d}</span>
        ))}
      </div>
      <ol className="mt-1 grid grid-cols-7 gap-1.5" aria-label={t`Your last four weeks`}>
        {Array.from({ length: lead }, (_, i) => (
          <li key={`pad${i}`} aria-hidden="true" />
        ))}
        {days.map((d) => {
          const iso = d.toISOString().slice(0, 10);
          const state = seen.has(iso) ? 'visited' : cold.has(iso) ? 'frozen' : iso === today ? 'today' : 'missed';
          // The date is Intl's (in <time>, like every date), the state a message of its own.
          const label =
            state === 'visited' ? t`visited` : state === 'frozen' ? t`frozen` : state === 'today' ? t`today, not yet` : t`missed`;
          const look =
            state === 'visited'
              ? 'bg-indigo-700 text-white'
              : state === 'frozen'
                ? 'bg-sky-200 text-sky-950'
                : 'bg-slate-100 text-slate-700';
          return (
            <li
              key={iso}
              className={`grid aspect-square place-items-center rounded-lg text-sm ${look} ${iso === today ? 'ring-2 ring-amber-500' : ''}`}
            >
              <span aria-hidden="true">{state === 'frozen' ? '❄' : i18n.number(d.getUTCDate())}</span>
              <span className="sr-only">
                <time dateTime={iso}>{dayFormat.format(d)}</time>: {label}
              </span>
            </li>
          );
        })}
      </ol>
    </div>
  );
}
