import { randomUUID } from 'node:crypto';
import type { ChatFilters } from '@parley/contract/chat';
import type { TokenUser } from '@parley/contract/auth';
import { rng } from './stats.ts';

export type BenchUser = { profile: TokenUser; filters: ChatFilters };

export type PopulationOptions = {
  /** Share of users who set topics (1–3 from a pool of popular ones). */
  topicShare: number;
  /** Share of users who narrow the gender filter. */
  genderFilterShare: number;
  /** Share of users who narrow the age range. */
  ageFilterShare: number;
  seed: number;
};

const TOPIC_POOL = ['music', 'movies', 'gaming', 'travel', 'books', 'sports', 'tech', 'art', 'food', 'anime', 'fitness', 'languages'];

/** Random users with random filters and topics; popular topics are picked more often (Zipf-like). */
export function population(n: number, o: PopulationOptions): BenchUser[] {
  const r = rng(o.seed);
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
    const profile: TokenUser = { userId, username: `bench${i}`, avatar: '', gender, age, isVerified: true, premiumUser: 'free tier' };
    return { profile, filters };
  });
}
