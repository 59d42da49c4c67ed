import { CALENDAR_DAYS } from '@parley/contract/missions';

const DAY_MS = 86_400_000;
const dayFormat = new Intl.DateTimeFormat(undefined, { weekday: 'short', month: 'short', day: 'numeric', timeZone: 'UTC' });
const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

/** The last CALENDAR_DAYS local dates ending today, in weeks from Monday: visited, frozen or missed. */
export function StreakCalendar({ today, visited, frozen }: { today: string; visited: string[]; frozen: string[] }) {
  const end = Date.parse(`${today}T00:00:00Z`);
  const days = Array.from({ length: CALENDAR_DAYS }, (_, i) => new Date(end - (CALENDAR_DAYS - 1 - i) * DAY_MS));
  const lead = (days[0]!.getUTCDay() + 6) % 7;
  const seen = new Set(visited);
  const cold = new Set(frozen);
  return (
    <div className="mt-4">
      <div className="grid grid-cols-7 gap-1.5 text-center text-xs font-semibold text-slate-700" aria-hidden="true">
        {WEEKDAYS.map((d) => (
          <span key={d}>{d}</span>
        ))}
      </div>
      <ol className="mt-1 grid grid-cols-7 gap-1.5" aria-label="Your last four weeks">
        {Array.from({ length: lead }, (_, i) => (
          <li key={`pad${i}`} aria-hidden="true" />
        ))}
        {days.map((d) => {
          const iso = d.toISOString().slice(0, 10);
          const state = seen.has(iso) ? 'visited' : cold.has(iso) ? 'frozen' : iso === today ? 'today, not yet' : 'missed';
          const look =
            state === 'visited'
              ? 'bg-indigo-700 text-white'
              : state === 'frozen'
                ? 'bg-sky-200 text-sky-950'
                : 'bg-slate-100 text-slate-700';
          return (
            <li
              key={iso}
              aria-label={`${dayFormat.format(d)}: ${state}`}
              className={`grid aspect-square place-items-center rounded-lg text-sm ${look} ${iso === today ? 'ring-2 ring-amber-500' : ''}`}
            >
              <span aria-hidden="true">{state === 'frozen' ? '❄' : d.getUTCDate()}</span>
            </li>
          );
        })}
      </ol>
    </div>
  );
}
