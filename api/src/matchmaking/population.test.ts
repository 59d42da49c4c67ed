import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { chatFiltersSchema, type ChatFiltersInput } from '@parley/contract/matchmaking';
import { GENDERS, MAX_AGE, MIN_AGE } from '@parley/contract/constants';
import { Population } from './population.ts';

type Person = { userId: string; gender: (typeof GENDERS)[number] | null; age: number | null };
const filters = (f: ChatFiltersInput) => chatFiltersSchema.parse(f);

/** The rule written out person by person: what the histogram must agree with. */
function fitsByHand(p: Person, f: ReturnType<typeof filters>): boolean {
  const anyAge = f.ageRange.minAge <= MIN_AGE && f.ageRange.maxAge >= MAX_AGE;
  const genderOk = f.gender === 'All' || p.gender === f.gender;
  const ageOk = p.age === null ? anyAge : p.age >= f.ageRange.minAge && p.age <= f.ageRange.maxAge;
  return genderOk && ageOk;
}

describe('the online population by gender and age', () => {
  it('counts users once however many tabs they have, and lets them go with their last', () => {
    const pop = new Population();
    const ana = { userId: 'ana', gender: 'female', age: 25 } as const;
    pop.join('s1', ana);
    pop.join('s2', ana);
    pop.join('s3', { userId: 'bo', gender: 'male', age: 40 });
    expect(pop.online).toBe(2);
    pop.leave('s1');
    expect(pop.online).toBe(2);
    pop.leave('s2');
    pop.leave('s2'); // twice: nothing more
    expect(pop.online).toBe(1);
    expect(pop.fitting(filters({ gender: 'female' }), { userId: 'bo', gender: 'male', age: 40 })).toBe(0);
  });

  it('counts who fits gender and age, never the user themselves', () => {
    const pop = new Population();
    pop.join('a', { userId: 'a', gender: 'female', age: 25 });
    pop.join('b', { userId: 'b', gender: 'female', age: 35 });
    pop.join('c', { userId: 'c', gender: 'male', age: 25 });
    pop.join('g', { userId: 'g', gender: null, age: null }); // a Google account not confirmed yet
    const me = { userId: 'a', gender: 'female', age: 25 } as const;
    expect(pop.fitting(filters({ gender: 'female' }), me)).toBe(1);
    expect(pop.fitting(filters({ gender: 'female', ageRange: { minAge: 18, maxAge: 30 } }), me)).toBe(0);
    expect(pop.fitting(filters({ gender: 'All' }), me)).toBe(3);
    expect(pop.fitting(filters({ gender: 'All', ageRange: { minAge: 20, maxAge: 30 } }), me)).toBe(1);
    expect(pop.fitting(filters({ gender: 'other' }), me)).toBe(0);
  });

  it('agrees with the rule applied to each person', () => {
    const gender = fc.constantFrom(...GENDERS, null);
    const age = fc.option(fc.integer({ min: MIN_AGE, max: MAX_AGE }), { nil: null });
    const range = fc
      .tuple(fc.integer({ min: MIN_AGE, max: MAX_AGE }), fc.integer({ min: MIN_AGE, max: MAX_AGE }))
      .map(([x, y]) => ({ minAge: Math.min(x, y), maxAge: Math.max(x, y) }));
    fc.assert(
      fc.property(
        fc.array(fc.record({ gender, age }), { maxLength: 40 }),
        fc.constantFrom('All', ...GENDERS),
        fc.oneof(range, fc.constant({ minAge: MIN_AGE, maxAge: MAX_AGE })),
        fc.nat(),
        (people, g, ageRange, pick) => {
          const pop = new Population();
          const all: Person[] = people.map((p, i) => ({ userId: `u${i}`, ...p }));
          all.forEach((p, i) => pop.join(`s${i}`, p));
          const f = filters({ gender: g, ageRange });
          const me = all.length > 0 ? all[pick % all.length]! : { userId: 'nobody', gender: 'male' as const, age: 30 };
          const expected = all.filter((p) => p.userId !== me.userId && fitsByHand(p, f)).length;
          expect(pop.fitting(f, me)).toBe(expected);
        },
      ),
    );
  });
});
