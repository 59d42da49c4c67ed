import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { ChatFilters } from '@parley/contract/matchmaking';
import { Matcher, type Gender, type Pairing, type Seeker } from './matcher.ts';

const FALLBACK = 3000;
const COOLDOWN = 10_000;

function seeker(ticket: string, over: Omit<Partial<Seeker>, 'filters'> & { filters?: Partial<ChatFilters> } = {}): Seeker {
  const { filters, ...rest } = over;
  return {
    ticket,
    userId: ticket,
    roomType: 'textChat',
    gender: 'male',
    age: 30,
    blocked: new Set(),
    ...rest,
    filters: { topics: [], gender: 'All', ageRange: { minAge: 18, maxAge: 99 }, ...filters },
  };
}

const pairOf = (p: Pairing | null) => (p ? [p.a.ticket, p.b.ticket].sort() : null);

describe('Matcher', () => {
  it('matches two compatible seekers and never a user with themself', () => {
    const m = new Matcher();
    expect(m.add(seeker('a'), 0)).toBeNull();
    expect(m.add(seeker('a2', { userId: 'a' }), 1)).toBeNull();
    expect(pairOf(m.add(seeker('b'), 2))).toEqual(['a', 'b']);
    expect(m.size).toBe(1);
  });

  const meets = (x: Seeker, y: Seeker) => {
    const m = new Matcher();
    m.add(x, 0);
    return m.add(y, 1) !== null;
  };

  it('requires each side to fit the other side’s gender and age filters', () => {
    const her = seeker('f', { gender: 'female', age: 25, filters: { gender: 'male', ageRange: { minAge: 20, maxAge: 30 } } });
    expect(meets(her, seeker('old', { gender: 'male', age: 40 }))).toBe(false);
    expect(meets(her, seeker('fem', { gender: 'female', age: 25 }))).toBe(false);
    expect(
      meets(her, seeker('picky', { gender: 'male', age: 25, filters: { gender: 'female', ageRange: { minAge: 30, maxAge: 99 } } })),
    ).toBe(false);
    expect(
      meets(seeker('picky', { gender: 'male', age: 25, filters: { gender: 'female', ageRange: { minAge: 30, maxAge: 99 } } }), her),
    ).toBe(false);
    expect(meets(her, seeker('ok', { gender: 'male', age: 28, filters: { gender: 'female' } }))).toBe(true);
  });

  it('takes both ends of an age range, whoever probes', () => {
    const range = (t: string, age: number, minAge: number, maxAge: number) => seeker(t, { age, filters: { ageRange: { minAge, maxAge } } });
    for (const age of [24, 25, 30, 31]) {
      const inside = age >= 25 && age <= 30;
      expect(meets(range('r', 27, 25, 30), seeker('x', { age })), `probed by ${age}`).toBe(inside);
      expect(meets(seeker('x', { age }), range('r', 27, 25, 30)), `probing ${age}`).toBe(inside);
    }
    expect(meets(range('lo', 18, 18, 18), range('lo2', 18, 18, 18))).toBe(true);
    expect(meets(range('hi', 99, 99, 99), range('hi2', 99, 99, 99))).toBe(true);
  });

  it('lets a user of unknown gender or age meet only filters that accept everybody', () => {
    const google = seeker('g', { gender: null, age: null });
    expect(meets(google, seeker('wantsMen', { filters: { gender: 'male' } }))).toBe(false);
    expect(meets(google, seeker('ageFilter', { filters: { ageRange: { minAge: 18, maxAge: 98 } } }))).toBe(false);
    expect(meets(seeker('noAge', { age: null }), seeker('wantsMen', { filters: { gender: 'male' } }))).toBe(true);
    expect(meets(google, seeker('open'))).toBe(true);
  });

  it('never matches a blocked pair, whichever side blocked', () => {
    const m = new Matcher();
    m.add(seeker('a', { blocked: new Set(['b']) }), 0);
    expect(m.add(seeker('b'), 1)).toBeNull();
    expect(m.add(seeker('c', { blocked: new Set(['b']) }), 2)).not.toBeNull(); // c meets a
    expect(m.add(seeker('d'), 3)?.b.ticket).toBe('b');
  });

  it('keeps people awaiting review after several reports apart from everyone else', () => {
    const m = new Matcher();
    m.add(seeker('reported', { inReview: true }), 0);
    expect(m.add(seeker('ordinary'), 1)).toBeNull();
    expect(m.add(seeker('alsoReported', { inReview: true }), 2)?.b.ticket).toBe('reported');
    expect(m.add(seeker('other'), 3)?.b.ticket).toBe('ordinary');
  });

  it('prefers most shared topics, then the longest waiting', () => {
    const m = new Matcher();
    const man = (ticket: string, topics: string[]) => seeker(ticket, { filters: { topics, gender: 'female' } });
    m.add(man('one', ['music']), 0);
    m.add(man('two', ['music', 'chess']), 1);
    m.add(man('two-later', ['chess', 'music']), 2);
    const p = m.add(seeker('me', { gender: 'female', filters: { topics: ['chess', 'music', 'go'] } }), 3);
    expect(p?.b.ticket).toBe('two');
    expect(p?.sharedTopics.sort()).toEqual(['chess', 'music']);
    const q = m.add(seeker('none'), 4);
    expect(q).toBeNull(); // the others still wait for a topic match
  });

  it('falls back to any compatible partner after the topic window', () => {
    const m = new Matcher({ topicFallbackMs: FALLBACK });
    m.add(seeker('topics', { filters: { topics: ['rare'] } }), 0);
    expect(m.add(seeker('plain'), 100)).toBeNull();
    expect(m.nextDeadline()).toBe(FALLBACK);
    expect(m.advance(FALLBACK - 1)).toEqual([]);
    const [p] = m.advance(FALLBACK);
    expect(pairOf(p ?? null)).toEqual(['plain', 'topics']);
    expect(p?.sharedTopics).toEqual([]);
  });

  it('avoids the last 3 partners until both have waited 10 s', () => {
    const m = new Matcher({ recentCooldownMs: COOLDOWN });
    m.add(seeker('a'), 0);
    expect(m.add(seeker('b'), 1)).not.toBeNull();
    m.add(seeker('a'), 2);
    expect(m.add(seeker('b'), 3)).toBeNull();
    expect(m.advance(COOLDOWN + 2)).toEqual([]); // b has waited only 9999 ms
    const [p] = m.advance(COOLDOWN + 3);
    expect(pairOf(p ?? null)).toEqual(['a', 'b']);
  });

  it('a seeker who asks to meet a recent partner again skips its own wait, never the partner’s', () => {
    const m = new Matcher({ recentCooldownMs: COOLDOWN });
    m.add(seeker('a'), 0);
    expect(m.add(seeker('b'), 1)).not.toBeNull();
    // b searches again first (it skipped); a asks to meet b again 4 s later: b has not waited out its side.
    expect(m.add(seeker('b'), 2)).toBeNull();
    expect(m.add(seeker('a', { meetAgain: ['b'] }), 4000)).toBeNull();
    // As soon as b's own wait is over they meet, though a has waited only 6 s.
    expect(m.advance(COOLDOWN + 1)).toEqual([]);
    const [p] = m.advance(COOLDOWN + 2);
    expect(pairOf(p ?? null)).toEqual(['a', 'b']);
    expect(p?.a.ticket).toBe('b');

    // Both asking: they meet at once.
    m.add(seeker('a', { meetAgain: ['b'] }), 20_000);
    expect(pairOf(m.add(seeker('b', { meetAgain: ['a'] }), 20_001))).toEqual(['a', 'b']);

    // A partner who has waited out their side is met at once by one who asks.
    m.add(seeker('b'), 30_000);
    expect(pairOf(m.add(seeker('a', { meetAgain: ['b'] }), 30_000 + COOLDOWN))).toEqual(['a', 'b']);
  });

  it('asking to meet someone again lifts the recent-partner wait only: blocks, filters and other partners still count', () => {
    const m = new Matcher({ recentCooldownMs: COOLDOWN });
    m.add(seeker('a'), 0);
    m.add(seeker('b', { gender: 'female' }), 1);
    m.add(seeker('a'), 2);
    m.add(seeker('c'), 3);
    // b blocked a meanwhile: no asking brings them together.
    m.add(seeker('b', { gender: 'female', blocked: new Set(['a']), meetAgain: ['a'] }), 10);
    expect(m.add(seeker('a', { blocked: new Set(['b']), meetAgain: ['b', 'c'] }), 11)).toBeNull();
    // b now looks for women only: a (a man) does not fit, whatever a asks.
    m.remove('a');
    m.add(seeker('b', { gender: 'female', filters: { gender: 'female' }, meetAgain: ['a'] }), 20);
    expect(m.add(seeker('a', { meetAgain: ['b'] }), 21)).toBeNull();
    // Naming b does not lift the wait for c, another recent partner.
    m.remove('a');
    m.remove('b');
    m.add(seeker('c'), 30);
    expect(m.add(seeker('a', { meetAgain: ['b'] }), 31)).toBeNull();
    expect(m.advance(COOLDOWN + 30)).toEqual([]);
    expect(pairOf(m.advance(COOLDOWN + 31)[0] ?? null)).toEqual(['a', 'c']);
  });

  it('keeps room types apart and cancels searches', () => {
    const m = new Matcher();
    m.add(seeker('t'), 0);
    expect(m.add(seeker('v', { roomType: 'videoChat' }), 1)).toBeNull();
    expect(m.remove('t')).toBe(true);
    expect(m.remove('t')).toBe(false);
    expect(m.add(seeker('x'), 2)).toBeNull();
    expect(m.size).toBe(2);
  });

  it('finds partners in large topic groups through the indexed path', () => {
    const m = new Matcher({ smallTopicGroup: 2 });
    for (let i = 0; i < 10; i++)
      m.add(seeker(`w${i}`, { gender: 'female', filters: { topics: ['music'], gender: 'male', ageRange: { minAge: 40, maxAge: 99 } } }), i);
    expect(m.add(seeker('young', { age: 30, filters: { topics: ['music'] } }), 20)).toBeNull();
    expect(m.add(seeker('older', { age: 45, filters: { topics: ['music'] } }), 21)?.b.ticket).toBe('w0');
  });
});

// ---- property tests over random populations ----

const genders: Array<Gender | null> = ['male', 'female', 'other', null];
const TOPICS = ['music', 'chess', 'films', 'go', 'art'];

type Person = { userId: string; gender: Gender | null; age: number | null; blocks: string[] };
const filtersArb: fc.Arbitrary<ChatFilters> = fc.record({
  topics: fc.uniqueArray(fc.constantFrom(...TOPICS), { maxLength: 3 }),
  gender: fc.constantFrom('All', 'All', 'male', 'female', 'other'),
  ageRange: fc.oneof(
    fc.constant({ minAge: 18, maxAge: 99 }),
    fc
      .tuple(fc.integer({ min: 18, max: 99 }), fc.integer({ min: 18, max: 99 }))
      .map(([x, y]) => ({ minAge: Math.min(x, y), maxAge: Math.max(x, y) })),
  ),
}) as fc.Arbitrary<ChatFilters>;

const scenarioArb = fc.integer({ min: 2, max: 14 }).chain((n) =>
  fc.record({
    people: fc.array(
      fc.record({
        gender: fc.constantFrom(...genders),
        age: fc.oneof(fc.integer({ min: 18, max: 99 }), fc.integer({ min: 18, max: 40 }), fc.constant(null)),
        blocks: fc.uniqueArray(fc.integer({ min: 0, max: n - 1 }), { maxLength: 2 }),
      }),
      { minLength: n, maxLength: n },
    ),
    ops: fc.array(
      fc.oneof(
        {
          weight: 6,
          arbitrary: fc.record({
            kind: fc.constant('add' as const),
            person: fc.nat(n - 1),
            tab: fc.nat(1),
            filters: filtersArb,
            roomType: fc.constantFrom('textChat' as const, 'textChat' as const, 'videoChat' as const),
          }),
        },
        { weight: 1, arbitrary: fc.record({ kind: fc.constant('remove' as const), person: fc.nat(n - 1), tab: fc.nat(1) }) },
        {
          weight: 3,
          arbitrary: fc.record({
            kind: fc.constant('wait' as const),
            ms: fc.oneof(fc.integer({ min: 0, max: 500 }), fc.integer({ min: 2000, max: 12_000 })),
          }),
        },
      ),
      { minLength: 1, maxLength: 60 },
    ),
    smallTopicGroup: fc.constantFrom(0, 1, 64),
  }),
);

function fits(x: Seeker, y: Seeker) {
  const f = x.filters;
  const genderOk = f.gender === 'All' || y.gender === f.gender;
  const full = f.ageRange.minAge === 18 && f.ageRange.maxAge === 99;
  const ageOk = y.age === null ? full : y.age >= f.ageRange.minAge && y.age <= f.ageRange.maxAge;
  return genderOk && ageOk;
}

const sharedCount = (a: Seeker, b: Seeker) => a.filters.topics.filter((t) => b.filters.topics.includes(t)).length;

describe('Matcher properties', () => {
  it('never pairs incompatible, blocked, self or too-recent users; leaves no compatible pair waiting; prefers shared topics', () => {
    fc.assert(
      fc.property(scenarioArb, ({ people, ops, smallTopicGroup }) => {
        const persons: Person[] = people.map((p, i) => ({ ...p, userId: `u${i}`, blocks: p.blocks.map((b) => `u${b}`) }));
        const m = new Matcher({ topicFallbackMs: FALLBACK, recentCooldownMs: COOLDOWN, smallTopicGroup });
        const recent = new Map<string, string[]>();
        const since = new Map<string, number>();
        let now = 0;

        const isRecent = (a: string, b: string) => (recent.get(a) ?? []).includes(b) || (recent.get(b) ?? []).includes(a);
        const compatible = (a: Seeker, b: Seeker, t: number) => {
          if (a.userId === b.userId || a.roomType !== b.roomType) return false;
          if (a.blocked.has(b.userId) || b.blocked.has(a.userId)) return false;
          if (!fits(a, b) || !fits(b, a)) return false;
          const sa = since.get(a.ticket)!;
          const sb = since.get(b.ticket)!;
          if (isRecent(a.userId, b.userId) && (t - sa < COOLDOWN || t - sb < COOLDOWN)) return false;
          const inWindow = (s: Seeker, at: number) => s.filters.topics.length > 0 && t - at < FALLBACK;
          if (sharedCount(a, b) === 0 && (inWindow(a, sa) || inWindow(b, sb))) return false;
          return true;
        };
        const check = (p: Pairing, t: number) => {
          expect(compatible(p.a, p.b, t)).toBe(true);
          for (const [x, y] of [
            [p.a.userId, p.b.userId],
            [p.b.userId, p.a.userId],
          ] as const)
            recent.set(x, [y, ...(recent.get(x) ?? []).filter((r) => r !== y)].slice(0, 3));
          since.delete(p.a.ticket);
          since.delete(p.b.ticket);
        };
        const advance = () => {
          // Deadlines are processed at their own times, so check each at the time it fired.
          for (let at = m.nextDeadline(); at !== undefined && at <= now; at = m.nextDeadline()) for (const p of m.advance(at)) check(p, at);
          for (const p of m.advance(now)) check(p, now);
        };

        for (const op of ops) {
          if (op.kind === 'wait') {
            now += op.ms;
            advance();
          } else if (op.kind === 'remove') {
            const ticket = `u${op.person}#${op.tab}`;
            m.remove(ticket);
            since.delete(ticket);
          } else {
            const person = persons[op.person]!;
            const s: Seeker = {
              ticket: `${person.userId}#${op.tab}`,
              userId: person.userId,
              roomType: op.roomType,
              gender: person.gender,
              age: person.age,
              filters: op.filters,
              blocked: new Set(person.blocks),
            };
            m.remove(s.ticket);
            since.delete(s.ticket);
            const before = m.waiting().filter((w) => w.seeker.ticket !== s.ticket);
            since.set(s.ticket, now);
            const p = m.add(s, now);
            if (p) {
              const candidates = before.filter((w) => compatible(s, w.seeker, now));
              expect(candidates.map((c) => c.seeker.ticket)).toContain(p.b.ticket);
              if (smallTopicGroup > 0) {
                // Exact preference: most shared topics, then the longest waiting.
                const best = Math.max(...candidates.map((c) => sharedCount(s, c.seeker)));
                const oldest = candidates.filter((c) => sharedCount(s, c.seeker) === best).sort((x, y) => x.since - y.since)[0]!;
                expect(p.b.ticket).toBe(oldest.seeker.ticket);
              } else if (candidates.some((c) => sharedCount(s, c.seeker) > 0)) {
                expect(sharedCount(s, p.b)).toBeGreaterThan(0);
              }
              check(p, now);
            } else {
              expect(before.filter((w) => compatible(s, w.seeker, now))).toEqual([]);
            }
          }
          // Nobody waits while a compatible partner waits too.
          const waiting = m.waiting();
          for (let i = 0; i < waiting.length; i++)
            for (let j = i + 1; j < waiting.length; j++) expect(compatible(waiting[i]!.seeker, waiting[j]!.seeker, now)).toBe(false);
        }
      }),
      { numRuns: 400 },
    );
  });
});
