import { hash } from 'node:crypto';
import { FREEZE_EVERY_DAYS, LENIENT_DAYS, type MissionEventKind } from '@parley/contract/missions';

/**
 * The pure rules of missions: the level curve, days in a user's own time zone, the daily streak,
 * quest drawing and when a streak reminder is due. Time is passed in; nothing here reads a clock.
 */

/** Total XP at which level L starts: 50 × (L−1)^1.6, rounded (level 2 at 50, 5 at 459, 10 at 1,682). */
export const totalXpFor = (level: number): number => Math.round(50 * Math.pow(Math.max(0, level - 1), 1.6));

/** The level of a total XP: the highest L whose start is at or below it. O(level). */
export function levelOf(xp: number): number {
  let level = 1;
  while (totalXpFor(level + 1) <= xp) level++;
  return level;
}

export function levelProgress(xp: number) {
  const level = levelOf(xp);
  const levelStartXp = totalXpFor(level);
  const nextLevelXp = totalXpFor(level + 1);
  return { level, levelStartXp, nextLevelXp, nextLevel: nextLevelXp - xp };
}

const dateFormats = new Map<string, Intl.DateTimeFormat>();
function partsIn(now: Date, timeZone: string) {
  let f = dateFormats.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      hourCycle: 'h23',
    });
    dateFormats.set(timeZone, f);
  }
  const p: Record<string, string> = {};
  for (const part of f.formatToParts(now)) p[part.type] = part.value;
  return p;
}

/** The calendar date (YYYY-MM-DD) it is at `now` in `timeZone`. */
export function localDate(now: Date, timeZone: string): string {
  const p = partsIn(now, timeZone);
  return `${p.year}-${p.month}-${p.day}`;
}

/** The hour of the day (0–23) at `now` in `timeZone`. */
export const localHour = (now: Date, timeZone: string): number => Number(partsIn(now, timeZone).hour) % 24;

/**
 * The date a visit counts for, and the zone whose calendar that date is read in. A reported zone
 * never makes a day come sooner: the date is the earlier of the reported zone's and that of the
 * zone the last visit was counted in, which stays the reference unless the reported one is behind
 * it (a move west). So every counted day needs a midnight in the previous one's zone, as if the
 * user had never switched; someone who moves east counts on the old calendar, a few hours late.
 */
export function visitDay(now: Date, reported: string, last: { date: string | null; zone: string }): { date: string; zone: string } {
  const inReported = localDate(now, reported);
  if (last.date === null) return { date: inReported, zone: reported };
  const inLast = localDate(now, last.zone);
  return inReported < inLast ? { date: inReported, zone: reported } : { date: inLast, zone: last.zone };
}

/**
 * Days are counted on calendar dates, never on elapsed milliseconds, so a 23- or 25-hour day
 * (a DST change) is one day like any other.
 */
export function dayNumber(date: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return Math.round(Date.UTC(y, m - 1, d) / 86_400_000);
}
export const dateOfDay = (day: number): string => new Date(day * 86_400_000).toISOString().slice(0, 10);
export const addDays = (date: string, days: number): string => dateOfDay(dayNumber(date) + days);

/** The ISO week (Monday first) of a date: `2026-W48`. */
export function isoWeek(date: string): string {
  const day = dayNumber(date);
  const weekday = (new Date(day * 86_400_000).getUTCDay() + 6) % 7; // Monday 0
  const thursday = day - weekday + 3;
  const year = new Date(thursday * 86_400_000).getUTCFullYear();
  const week = Math.floor((thursday - dayNumber(`${year}-01-01`)) / 7) + 1;
  return `${year}-W${String(week).padStart(2, '0')}`;
}

export type Streak = {
  /** consecutiveDays: at least 1 once the user visited. */
  days: number;
  lastVisit: string | null;
  freezes: number;
};

export type VisitOutcome = {
  streak: Streak;
  /** False when today was already counted (or the clock went back a day with a new time zone). */
  counted: boolean;
  /** Missed days that a freeze covered. */
  frozen: string[];
  /** A freeze was earned by this visit. */
  freezeEarned: boolean;
};

/**
 * Counts a visit on `today` (the user's local date). The day after the last visit adds one; missed
 * days are covered by freezes when there are enough (one each, used automatically), and do not
 * break the streak while the account is in its first LENIENT_DAYS; otherwise the streak starts
 * again at 1. Every run of FREEZE_EVERY_DAYS earns a freeze, up to `maxFreezes`.
 */
export function visit(streak: Streak, today: string, opts: { maxFreezes: number; accountStart: string }): VisitOutcome {
  const none = { streak, counted: false, frozen: [], freezeEarned: false };
  if (streak.lastVisit === null) return earn({ days: 1, lastVisit: today, freezes: streak.freezes }, [], opts.maxFreezes);
  const gap = dayNumber(today) - dayNumber(streak.lastVisit);
  if (gap <= 0) return none;
  const missed = gap - 1;
  if (missed === 0) return earn({ ...streak, days: streak.days + 1, lastVisit: today }, [], opts.maxFreezes);
  if (missed <= streak.freezes) {
    const frozen = Array.from({ length: missed }, (_, i) => addDays(streak.lastVisit!, i + 1));
    return earn({ days: streak.days + 1, lastVisit: today, freezes: streak.freezes - missed }, frozen, opts.maxFreezes);
  }
  if (dayNumber(today) - dayNumber(opts.accountStart) < LENIENT_DAYS) {
    return earn({ ...streak, days: streak.days + 1, lastVisit: today }, [], opts.maxFreezes);
  }
  return earn({ days: 1, lastVisit: today, freezes: streak.freezes }, [], opts.maxFreezes);
}

function earn(streak: Streak, frozen: string[], maxFreezes: number): VisitOutcome {
  const freezeEarned = streak.days % FREEZE_EVERY_DAYS === 0 && streak.freezes < maxFreezes;
  return { streak: freezeEarned ? { ...streak, freezes: streak.freezes + 1 } : streak, counted: true, frozen, freezeEarned };
}

/** What the streak shows today: a streak whose last visit is older than yesterday (and not coverable) reads as 0 until the next visit. */
export function shownDays(streak: Streak, today: string): number {
  if (streak.lastVisit === null) return 0;
  const missed = dayNumber(today) - dayNumber(streak.lastVisit) - 1;
  return missed <= streak.freezes ? streak.days : 0;
}

export type CatalogueQuest = { id: string; cadence: 'daily' | 'weekly'; kind: MissionEventKind; weight: number };

/**
 * Draws `count` quests of a cadence for one user and period, deterministically (the same user,
 * period and catalogue always give the same quests, in any process), weighted, without repeats,
 * and only from event kinds that have a live source. O(n log n) in the catalogue's size.
 */
export function drawQuests<Q extends CatalogueQuest>(
  catalogue: readonly Q[],
  opts: { cadence: Q['cadence']; live: ReadonlySet<MissionEventKind>; seed: string; count: number },
): Q[] {
  // Weighted sampling without replacement (Efraimidis–Spirakis): key = u^(1/w), the largest win.
  return catalogue
    .filter((q) => q.cadence === opts.cadence && opts.live.has(q.kind) && q.weight > 0)
    .map((q) => ({ q, key: Math.pow(unit(`${opts.seed}:${q.id}`), 1 / q.weight) }))
    .sort((a, b) => b.key - a.key || (a.q.id < b.q.id ? -1 : 1))
    .slice(0, opts.count)
    .map((x) => x.q);
}

/** A stable number in (0, 1) from a string. */
function unit(s: string): number {
  // One-shot: a user's first draw of the day hashes every quest of the catalogue. Its first four
  // bytes, read from hex: asking crypto.hash for 'buffer' takes Node's slow path (receipts.ts).
  return (parseInt(hash('sha256', s, 'hex').slice(0, 8), 16) + 1) / 4_294_967_297;
}

export type ReminderState = {
  enabled: boolean;
  quietFrom: number;
  quietTo: number;
  timeZone: string;
  streak: Streak;
  /** The local date the last reminder went out. */
  lastReminder: string | null;
};

/** Whether the local hour falls in quiet hours [from, to), which may wrap midnight (22 → 8). */
export function inQuietHours(hour: number, from: number, to: number): boolean {
  if (from === to) return false;
  return from < to ? hour >= from && hour < to : hour >= from || hour < to;
}

/**
 * A streak reminder is due when the user switched them on, has a streak that today's visit would
 * continue and has not visited today, was not reminded today, and it is not their quiet hours.
 */
export function reminderDue(s: ReminderState, now: Date): boolean {
  if (!s.enabled || s.streak.lastVisit === null) return false;
  const today = localDate(now, s.timeZone);
  if (s.lastReminder === today || s.streak.lastVisit === today) return false;
  if (shownDays(s.streak, today) === 0) return false;
  return !inQuietHours(localHour(now, s.timeZone), s.quietFrom, s.quietTo);
}
