import type { Settings } from '@parley/contract/people';

/** Minutes past midnight of `at` in `timeZone`. */
function minutesIn(timeZone: string, at: Date): number {
  const parts = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(at);
  const get = (t: string) => Number(parts.find((p) => p.type === t)?.value ?? 0);
  return get('hour') * 60 + get('minute');
}

const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** Whether `at` falls in the user's quiet hours; a window past midnight (22:00–07:00) wraps. */
export function inQuietHours(quiet: Settings['quietHours'], at: Date): boolean {
  if (!quiet) return false;
  const t = minutesIn(quiet.timeZone, at);
  const start = minutes(quiet.start);
  const end = minutes(quiet.end);
  if (start === end) return false;
  return start < end ? t >= start && t < end : t >= start || t < end;
}
