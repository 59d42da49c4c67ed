import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  addDays,
  drawQuests,
  inQuietHours,
  isoWeek,
  levelOf,
  levelProgress,
  localDate,
  reminderDue,
  shownDays,
  totalXpFor,
  visit,
  type CatalogueQuest,
  type Streak,
} from './rules.ts';

const fresh: Streak = { days: 0, lastVisit: null, freezes: 0 };
const old = { maxFreezes: 2, accountStart: '2020-01-01' };

describe('level curve', () => {
  it('follows the published curve', () => {
    expect([1, 2, 3, 5, 10].map(totalXpFor)).toEqual([0, 50, 152, 459, 1682]);
    expect(levelOf(0)).toBe(1);
    expect(levelOf(49)).toBe(1);
    expect(levelOf(50)).toBe(2);
    expect(levelProgress(60)).toEqual({ level: 2, levelStartXp: 50, nextLevelXp: 152, nextLevel: 92 });
  });

  it('places every XP total between its level start and the next (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2_000_000 }), (xp) => {
        const p = levelProgress(xp);
        expect(p.levelStartXp).toBeLessThanOrEqual(xp);
        expect(xp).toBeLessThan(p.nextLevelXp);
        expect(p.nextLevel).toBeGreaterThan(0);
      }),
    );
  });

  it('never lowers the level as XP grows (property)', () => {
    fc.assert(fc.property(fc.nat(1_000_000), fc.nat(10_000), (xp, more) => levelOf(xp) <= levelOf(xp + more)));
  });
});

describe('days in the user’s time zone', () => {
  it('takes the date where the user is', () => {
    const at = new Date('2026-03-01T23:30:00Z');
    expect(localDate(at, 'UTC')).toBe('2026-03-01');
    expect(localDate(at, 'Europe/Paris')).toBe('2026-03-02');
    expect(localDate(at, 'America/Los_Angeles')).toBe('2026-03-01');
  });

  it('counts visits across a DST change as consecutive days', () => {
    // Europe/Paris moves to summer time on 2026-03-29: that day has 23 hours.
    let s = fresh;
    for (const iso of ['2026-03-28T21:30:00Z', '2026-03-29T21:30:00Z', '2026-03-30T06:00:00Z']) {
      s = visit(s, localDate(new Date(iso), 'Europe/Paris'), old).streak;
    }
    expect(s.days).toBe(3);
    // New York falls back on 2026-11-01 (25 hours): late evening visits still one a day.
    let n = fresh;
    for (const iso of ['2026-11-01T03:30:00Z', '2026-11-02T04:30:00Z', '2026-11-03T04:30:00Z']) {
      n = visit(n, localDate(new Date(iso), 'America/New_York'), old).streak;
    }
    expect(n.days).toBe(3);
  });

  it('names ISO weeks', () => {
    expect(isoWeek('2026-11-26')).toBe('2026-W48');
    expect(isoWeek('2027-01-01')).toBe('2026-W53');
    expect(isoWeek('2024-12-30')).toBe('2025-W01');
  });
});

describe('streak', () => {
  it('adds a day, ignores a second visit the same day, and starts again after a missed day', () => {
    let o = visit(fresh, '2026-11-01', old);
    expect(o.streak).toEqual({ days: 1, lastVisit: '2026-11-01', freezes: 0 });
    o = visit(o.streak, '2026-11-01', old);
    expect(o.counted).toBe(false);
    o = visit(o.streak, '2026-11-02', old);
    expect(o.streak.days).toBe(2);
    o = visit(o.streak, '2026-11-04', old);
    expect(o.streak.days).toBe(1);
  });

  it('earns a freeze every 7 days, holds at most maxFreezes, and uses them on missed days', () => {
    let s = fresh;
    for (let d = 0; d < 21; d++) s = visit(s, addDays('2026-01-01', d), old).streak;
    expect(s.days).toBe(21);
    expect(s.freezes).toBe(2); // earned on days 7 and 14; day 21's would be a third
    const o = visit(s, addDays('2026-01-01', 23), old); // the 22nd and 23rd missed
    expect(o.frozen).toEqual(['2026-01-22', '2026-01-23']);
    expect(o.streak).toEqual({ days: 22, lastVisit: '2026-01-24', freezes: 0 });
  });

  it('is lenient in the account’s first week', () => {
    const start = { maxFreezes: 2, accountStart: '2026-11-01' };
    let s = visit(fresh, '2026-11-01', start).streak;
    s = visit(s, '2026-11-04', start).streak;
    expect(s.days).toBe(2);
    s = visit(s, '2026-11-10', start).streak;
    expect(s.days).toBe(1);
  });

  it('never goes below 1 after a visit, never holds more freezes than allowed, and a freeze covers one day (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 4 }), { maxLength: 60 }), fc.integer({ min: 0, max: 3 }), (gaps, maxFreezes) => {
        let s = fresh;
        let date = '2026-01-01';
        const opts = { maxFreezes, accountStart: '2025-01-01' };
        for (const gap of gaps) {
          date = addDays(date, gap);
          const before = s;
          const o = visit(s, date, opts);
          s = o.streak;
          expect(s.days).toBeGreaterThanOrEqual(1);
          expect(s.freezes).toBeLessThanOrEqual(Math.max(maxFreezes, 0));
          if (o.counted && before.lastVisit) {
            const continued = s.days === before.days + 1;
            expect(continued || s.days === 1).toBe(true);
            expect(o.frozen.length).toBe(continued ? Math.max(0, gap - 1) : 0);
          }
        }
      }),
    );
  });

  it('shows a broken streak as 0 until the next visit', () => {
    const s: Streak = { days: 5, lastVisit: '2026-11-01', freezes: 1 };
    expect(shownDays(s, '2026-11-02')).toBe(5);
    expect(shownDays(s, '2026-11-03')).toBe(5); // one missed day, one freeze
    expect(shownDays(s, '2026-11-04')).toBe(0);
  });
});

describe('quest drawing', () => {
  const catalogue: CatalogueQuest[] = [
    { id: 'a', cadence: 'daily', kind: 'chatAnswered', weight: 1 },
    { id: 'b', cadence: 'daily', kind: 'chatMinute', weight: 1 },
    { id: 'c', cadence: 'daily', kind: 'friendMade', weight: 5 },
    { id: 'd', cadence: 'daily', kind: 'dailyVisit', weight: 1 },
    { id: 'e', cadence: 'daily', kind: 'chatMinute', weight: 2 },
    { id: 'w', cadence: 'weekly', kind: 'chatAnswered', weight: 1 },
  ];
  const live = new Set(['chatAnswered', 'chatMinute', 'dailyVisit'] as const);

  it('draws distinct quests of the cadence, only with live sources, the same for the same seed (property)', () => {
    fc.assert(
      fc.property(fc.string(), (seed) => {
        const q = drawQuests(catalogue, { cadence: 'daily', live, seed, count: 3 });
        expect(q).toHaveLength(3);
        expect(new Set(q.map((x) => x.id)).size).toBe(3);
        expect(q.every((x) => x.cadence === 'daily' && x.kind !== 'friendMade')).toBe(true);
        expect(drawQuests(catalogue, { cadence: 'daily', live, seed, count: 3 })).toEqual(q);
      }),
    );
  });

  it('gives fewer when fewer are possible, and varies between days', () => {
    expect(drawQuests(catalogue, { cadence: 'weekly', live, seed: 'x', count: 3 })).toHaveLength(1);
    const sets = new Set(
      Array.from({ length: 30 }, (_, i) =>
        drawQuests(catalogue, { cadence: 'daily', live, seed: `u:${addDays('2026-01-01', i)}`, count: 3 })
          .map((q) => q.id)
          .sort()
          .join(),
      ),
    );
    expect(sets.size).toBeGreaterThan(1);
  });
});

describe('streak reminders', () => {
  const base = {
    enabled: true,
    quietFrom: 22,
    quietTo: 8,
    timeZone: 'Europe/Paris',
    streak: { days: 4, lastVisit: '2026-11-25', freezes: 0 },
    lastReminder: null,
  };
  const at = new Date('2026-11-26T17:00:00Z'); // 18:00 in Paris

  it('is due once a day, outside quiet hours, for a streak today would continue', () => {
    expect(reminderDue(base, at)).toBe(true);
    expect(reminderDue({ ...base, lastReminder: '2026-11-26' }, at)).toBe(false);
    expect(reminderDue({ ...base, enabled: false }, at)).toBe(false);
    expect(reminderDue({ ...base, streak: { ...base.streak, lastVisit: '2026-11-26' } }, at)).toBe(false);
    expect(reminderDue(base, new Date('2026-11-26T22:30:00Z'))).toBe(false); // 23:30 in Paris
    expect(reminderDue({ ...base, streak: { ...base.streak, lastVisit: '2026-11-20' } }, at)).toBe(false);
  });

  it('reads quiet hours that wrap midnight', () => {
    expect(inQuietHours(23, 22, 8)).toBe(true);
    expect(inQuietHours(7, 22, 8)).toBe(true);
    expect(inQuietHours(8, 22, 8)).toBe(false);
    expect(inQuietHours(13, 12, 14)).toBe(true);
    expect(inQuietHours(5, 5, 5)).toBe(false);
  });
});
