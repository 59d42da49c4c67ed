import { randomUUID } from 'node:crypto';
import type { ChatFilters } from '@parley/contract/matchmaking';
import type { TokenUser } from '@parley/contract/auth';
import { rng } from './stats.ts';

/** What the profile says for matching (stored with the account): languages spoken and learnt, country. */
export type BenchProfile = { speaks: string[]; learning: string[]; country: string };
export type BenchUser = { profile: TokenUser; filters: ChatFilters; match: BenchProfile };

export type PopulationOptions = {
  /** Share of users who set topics (1–3 from a pool of popular ones). */
  topicShare: number;
  /** Share of users who narrow the gender filter. */
  genderFilterShare: number;
  /** Share of users who narrow the age range. */
  ageFilterShare: number;
  /** Share of users whose profile lists the languages they speak: the matcher prefers a partner sharing one. */
  languageShare?: number;
  /** Share of users who accept only people from one country (mostly their own). */
  countryShare?: number;
  seed: number;
};

const TOPIC_POOL = ['music', 'movies', 'gaming', 'travel', 'books', 'sports', 'tech', 'art', 'food', 'anime', 'fitness', 'languages'];

/**
 * Where simulated users connect from, roughly as a global chat site's audience spreads (share of
 * users), and the language each country's people speak first. Every user has a country (the
 * server derives one from each address); only some list their languages or require a country.
 */
const COUNTRIES: ReadonlyArray<readonly [country: string, share: number, language: string]> = [
  ['US', 0.18, 'en'],
  ['IN', 0.1, 'en'],
  ['BR', 0.1, 'pt'],
  ['GB', 0.06, 'en'],
  ['MX', 0.07, 'es'],
  ['ES', 0.04, 'es'],
  ['ID', 0.07, 'id'],
  ['TR', 0.06, 'tr'],
  ['DE', 0.06, 'de'],
  ['FR', 0.06, 'fr'],
  ['JP', 0.05, 'ja'],
  ['EG', 0.04, 'ar'],
  ['SA', 0.03, 'ar'],
  ['PH', 0.04, 'en'],
];
const LANGUAGES = [...new Set(COUNTRIES.map(([, , l]) => l))];
const BIG_COUNTRIES = ['US', 'BR', 'IN'];

/** Random users with random filters and topics; popular topics are picked more often (Zipf-like). */
export function population(n: number, o: PopulationOptions): BenchUser[] {
  const r = rng(o.seed);
  const r2 = rng(o.seed + 7919);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)]!;
  const zipfTopic = () => TOPIC_POOL[Math.min(TOPIC_POOL.length - 1, Math.floor(TOPIC_POOL.length * r() ** 2))]!;
  return Array.from({ length: n }, (_, i) => {
    const x = r();
    const gender = x < 0.48 ? 'male' : x < 0.96 ? 'female' : 'other';
    const age = 18 + Math.floor(r() * 43);
    const userId = randomUUID();
    const topics = r() < o.topicShare ? [...new Set(Array.from({ length: 1 + Math.floor(r() * 3) }, zipfTopic))] : [];
    const narrowGender = r() < o.genderFilterShare;
    const narrowAge = r() < o.ageFilterShare;
    const spread = 8 + Math.floor(r() * 15);
    const filters: ChatFilters = {
      topics,
      gender: narrowGender ? pick(['male', 'female', 'female', 'male', 'other'] as const) : 'All',
      ageRange: narrowAge ? { minAge: Math.max(18, age - spread), maxAge: Math.min(99, age + spread) } : { minAge: 18, maxAge: 99 },
    };
    // From a generator of their own, the same number of draws whatever the shares: the same seed
    // gives the same people as before, and the same people with the filters as without them.
    const [c0, l0, en, learns, learnt, requires, which] = Array.from({ length: 7 }, r2);
    let c = c0!;
    const [country, , first] = COUNTRIES.find(([, share]) => (c -= share) < 0) ?? COUNTRIES[0]!;
    const listsLanguages = l0! < (o.languageShare ?? 0);
    // Many who speak another language first speak English too; some learn a language they do not speak.
    const speaks = listsLanguages ? (first !== 'en' && en! < 0.4 ? [first, 'en'] : [first]) : [];
    const others = LANGUAGES.filter((l) => !speaks.includes(l));
    const learning = listsLanguages && learns! < 0.2 ? [others[Math.floor(learnt! * others.length)]!] : [];
    // Mostly "people from my country"; some want a big country they are not in.
    if (requires! < (o.countryShare ?? 0))
      filters.countries = [which! < 0.8 ? country : BIG_COUNTRIES[Math.floor((which! - 0.8) * 5 * 3)]!];
    const profile: TokenUser = { userId, username: `bench${i}`, avatar: '', gender, age, isVerified: true, premiumUser: 'free tier' };
    return { profile, filters, match: { speaks, learning, country } };
  });
}
