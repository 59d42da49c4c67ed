import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { ChatFilters } from '@parley/contract/matchmaking';
import { Matcher, type Pairing, type Seeker } from './matcher.ts';
import { nearCountries } from '@parley/contract/countries';
import { cachedMatchProfiles, matchTerms, NO_PROFILE, type MatchProfile } from './matchProfile.ts';

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

/** Waiting people who cannot meet each other (women who want men), so a test sees whom a newcomer picks. */
const w = (ticket: string, over: Omit<Partial<Seeker>, 'filters'> = {}) =>
  seeker(ticket, { gender: 'female', filters: { gender: 'male' }, ...over });

const partnerOf = (p: Pairing | null, me: string) => (p ? (p.a.ticket === me ? p.b.ticket : p.a.ticket) : null);

describe('Matcher: languages and countries', () => {
  it('prefers a partner who shares a language over one who came first', () => {
    const m = new Matcher();
    m.add(w('ja', { speaks: ['ja'] }), 0);
    m.add(w('es', { speaks: ['es'] }), 1);
    expect(partnerOf(m.add(seeker('me', { speaks: ['en', 'es'] }), 2), 'me')).toBe('es');
    // Nobody shares a language: anyone compatible rather than nobody.
    expect(partnerOf(m.add(seeker('de', { speaks: ['de'] }), 3), 'de')).toBe('ja');
  });

  it('prefers a shared language among a large group too (indexed by slot)', () => {
    const m = new Matcher({ smallTopicGroup: 4 });
    for (let i = 0; i < 12; i++) m.add(w(`fr${i}`, { speaks: ['fr'] }), i);
    for (let i = 0; i < 12; i++) m.add(w(`it${i}`, { speaks: ['it'] }), 20 + i);
    expect(partnerOf(m.add(seeker('me', { speaks: ['it'], filters: { gender: 'female' } }), 40), 'me')).toBe('it0');
    expect(partnerOf(m.add(seeker('me2', { speaks: ['it'] }), 41), 'me2')).toBe('it1');
  });

  it('honours a required language: waits rather than meeting someone who does not speak it', () => {
    const m = new Matcher();
    m.add(seeker('en', { speaks: ['en'] }), 0);
    expect(m.add(seeker('me', { speaks: ['en'], requireLanguages: ['es'] }), 1)).toBeNull();
    // Someone who does not speak Spanish, arriving later, does not get the waiting seeker either.
    expect(partnerOf(m.add(seeker('en2', { speaks: ['en'] }), 2), 'en2')).toBe('en');
    expect(partnerOf(m.add(seeker('es', { speaks: ['es', 'pt'] }), 3), 'es')).toBe('me');
  });

  it('honours a required country, and a hidden or unknown country fits no country filter', () => {
    const m = new Matcher();
    m.add(seeker('me', { country: 'FR', requireCountries: ['BR', 'PT'] }), 0);
    expect(m.add(seeker('hidden', { country: null }), 1)).toBeNull();
    expect(m.add(seeker('us', { country: 'US' }), 2)).not.toBeNull(); // meets "hidden", not "me"
    expect(m.isWaiting('me')).toBe(true);
    expect(partnerOf(m.add(seeker('pt', { country: 'PT' }), 3), 'pt')).toBe('me');
  });

  it('matches language-exchange pairs above a merely shared language, and says so', () => {
    const m = new Matcher();
    m.add(w('shared', { speaks: ['en', 'es'] }), 0);
    m.add(w('ex', { speaks: ['es'], learning: ['en'] }), 1);
    const p = m.add(seeker('me', { speaks: ['en'], learning: ['es'] }), 2);
    expect(partnerOf(p, 'me')).toBe('ex');
    expect(p!.a.ticket).toBe('me');
    expect(p!.exchange).toEqual({ aLearns: 'es', bLearns: 'en' });
  });

  it('does not call a pairing an exchange when only one side learns', () => {
    const m = new Matcher();
    m.add(seeker('es', { speaks: ['es'] }), 0);
    const p = m.add(seeker('me', { speaks: ['en'], learning: ['es'] }), 1);
    expect(partnerOf(p, 'me')).toBe('es');
    expect(p!.exchange).toBeUndefined();
  });

  it('two restricted seekers find each other', () => {
    const m = new Matcher();
    m.add(seeker('a', { speaks: ['es'], country: 'MX', requireCountries: ['AR'] }), 0);
    expect(m.add(seeker('c', { speaks: ['pt'], country: 'AR', requireLanguages: ['pt'] }), 1)).toBeNull();
    expect(partnerOf(m.add(seeker('b', { speaks: ['es'], country: 'AR', requireLanguages: ['es'] }), 2), 'b')).toBe('a');
    expect(m.isWaiting('c')).toBe(true);
  });

  it('keeps a topic window: a shared language alone does not end it early', () => {
    const m = new Matcher({ topicFallbackMs: 1000 });
    m.add(seeker('t', { speaks: ['en'], filters: { topics: ['chess'] } }), 0);
    expect(m.add(seeker('me', { speaks: ['en'] }), 1)).toBeNull();
    const later = m.advance(1000);
    expect(later.map((p) => [p.a.ticket, p.b.ticket].sort())).toEqual([['me', 't']]);
  });

  // Hundreds of random populations: seconds alone, far more beside a browser test run.
  it('always honours required languages and countries (property)', { timeout: 120_000 }, () => {
    const langs = ['en', 'es', 'fr', 'ja'];
    const countries = ['US', 'MX', 'FR', 'JP'];
    const someOf = (xs: string[]) => fc.subarray(xs, { maxLength: 2 });
    const arb = fc.array(
      fc.record({
        speaks: someOf(langs),
        learning: someOf(langs),
        country: fc.option(fc.constantFrom(...countries), { nil: null }),
        requireLanguages: fc.oneof(fc.constant([] as string[]), someOf(langs)),
        requireCountries: fc.oneof(fc.constant([] as string[]), someOf(countries)),
        topics: fc.subarray(['a', 'b'], { maxLength: 1 }),
        leave: fc.boolean(),
      }),
      { minLength: 1, maxLength: 40 },
    );
    fc.assert(
      fc.property(arb, fc.integer({ min: 1, max: 8 }), (people, small) => {
        const m = new Matcher({ smallTopicGroup: small, topicFallbackMs: 5, recentCooldownMs: 1_000_000 });
        const pairings: Pairing[] = [];
        let now = 0;
        people.forEach((p, i) => {
          pairings.push(...m.advance(now));
          const s = seeker(`s${i}`, { ...p, filters: { topics: p.topics } });
          const got = m.add(s, now);
          if (got) pairings.push(got);
          if (p.leave && i > 0) m.remove(`s${i - 1}`);
          now += 3;
        });
        pairings.push(...m.advance(now + 100));
        const ok = (x: Seeker, y: Seeker) =>
          ((x.requireLanguages ?? []).length === 0 || (x.requireLanguages ?? []).some((l) => (y.speaks ?? []).includes(l))) &&
          ((x.requireCountries ?? []).length === 0 || (y.country != null && (x.requireCountries ?? []).includes(y.country)));
        for (const p of pairings) {
          if (!ok(p.a, p.b) || !ok(p.b, p.a)) return false;
        }
        // Nobody left waiting could have met another one left waiting.
        const left = m.waiting().map((w) => w.seeker);
        for (const x of left) for (const y of left) if (x !== y && ok(x, y) && ok(y, x)) return false;
        return true;
      }),
      { numRuns: 300 },
    );
  });
});

describe('profiles and filters as the searches give them to the matcher', () => {
  it(
    'never pair someone with a person outside their required languages and countries, nor by a hidden country (property)',
    { timeout: 120_000 },
    () => {
      const langs = ['en', 'es', 'de'];
      // FR's neighbours include DE and ES: "near me" reaches past the person's own country.
      const countries = ['FR', 'DE', 'ES', 'JP'];
      const someOf = (xs: string[]) => fc.subarray(xs, { maxLength: 2 });
      const person = fc.record({
        profile: fc.record({
          speaks: someOf(langs),
          learning: someOf(langs),
          country: fc.option(fc.constantFrom(...countries), { nil: null }),
          hideCountry: fc.boolean(),
        }),
        detected: fc.option(fc.constantFrom(...countries), { nil: null }),
        filters: fc.record({
          languages: fc.option(someOf(langs), { nil: undefined }),
          countries: fc.option(someOf(countries), { nil: undefined }),
          nearMe: fc.boolean(),
        }),
      });
      fc.assert(
        fc.property(fc.array(person, { minLength: 2, maxLength: 30 }), (people) => {
          const m = new Matcher({ topicFallbackMs: 5, recentCooldownMs: 1_000_000 });
          const pairings: Pairing[] = [];
          const whose = new Map<string, (typeof people)[number]>();
          people.forEach((p, i) => {
            const filters: ChatFilters = { topics: [], gender: 'All', ageRange: { minAge: 18, maxAge: 99 }, ...p.filters };
            let terms: ReturnType<typeof matchTerms>;
            try {
              terms = matchTerms(p.profile, p.detected, filters);
            } catch {
              // "Near me" without a known country is refused before any search: nobody to check.
              return expect(p.filters.nearMe && (p.profile.country ?? p.detected) === null).toBe(true);
            }
            const s = seeker(`s${i}`, { ...terms, filters });
            whose.set(s.ticket, p);
            const got = m.add(s, i * 3);
            if (got) pairings.push(got);
            pairings.push(...m.advance(i * 3 + 1));
          });
          pairings.push(...m.advance(10_000));
          // Checked against what people set, not against the terms the matcher was given.
          const fits = (x: (typeof people)[number], y: (typeof people)[number]) => {
            const own = x.profile.country ?? x.detected;
            const wanted = [...(x.filters.countries ?? []), ...(x.filters.nearMe && own ? nearCountries(own) : [])];
            const shown = y.profile.hideCountry ? null : (y.profile.country ?? y.detected);
            const languagesOk = !x.filters.languages?.length || x.filters.languages.some((l) => y.profile.speaks.includes(l));
            return languagesOk && (wanted.length === 0 || (shown !== null && wanted.includes(shown)));
          };
          return pairings.every(
            (p) => fits(whose.get(p.a.ticket)!, whose.get(p.b.ticket)!) && fits(whose.get(p.b.ticket)!, whose.get(p.a.ticket)!),
          );
        }),
        { numRuns: 200 },
      );
    },
  );
});

describe('cachedMatchProfiles', () => {
  const profile = (speaks: string[]): MatchProfile => ({ ...NO_PROFILE, speaks });
  it('reads a profile once, again after forget or after its time, and never keeps a failed read', async () => {
    let t = 0;
    const reads: string[] = [];
    let answer: MatchProfile | Error = profile(['es']);
    const cache = cachedMatchProfiles(
      async (userId) => {
        reads.push(userId);
        if (answer instanceof Error) throw answer;
        return answer;
      },
      { ttlMs: 1000, max: 2, now: () => t },
    );
    expect(await cache.get('a')).toEqual(profile(['es']));
    expect(await cache.get('a')).toEqual(profile(['es']));
    expect(reads).toEqual(['a']);
    answer = profile(['ja']);
    cache.forget('a');
    expect(await cache.get('a')).toEqual(profile(['ja']));
    t = 1000;
    await cache.get('a');
    expect(reads).toEqual(['a', 'a', 'a']);
    answer = new Error('database down');
    t = 3000;
    await expect(cache.get('b')).rejects.toThrow('database down');
    answer = profile(['fr']);
    expect(await cache.get('b')).toEqual(profile(['fr']));
    // At most `max` people: the oldest goes first.
    await cache.get('a'); // read again (its time was over): b and a kept
    await cache.get('c'); // b, the oldest read, goes
    await cache.get('a');
    await cache.get('b');
    expect(reads.slice(-3)).toEqual(['a', 'c', 'b']);
  });
});
