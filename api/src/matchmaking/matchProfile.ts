import { and, eq, sql } from 'drizzle-orm';
import { languagesOfLocales } from '@parley/contract/languages';
import { nearCountries } from '@parley/contract/countries';
import type { ChatFilters } from '@parley/contract/matchmaking';
import type { Db } from '../db/client.ts';
import { users } from '../db/schema.ts';
import { Refusal } from '../realtime/refusals.ts';
import type { SearchFacts } from '../db/accounts.ts';

/** What matching reads of a person's profile: their languages, and their country and whether they show it. */
export type MatchProfile = { speaks: string[]; learning: string[]; country: string | null; hideCountry: boolean };

export const NO_PROFILE: MatchProfile = { speaks: [], learning: [], country: null, hideCountry: false };

/** A person's match profile from their account's search facts (read with safety's, in one statement per turn). */
export function matchProfiles(read: (userId: string) => Promise<SearchFacts | undefined>) {
  return async (userId: string): Promise<MatchProfile> => {
    const row = await read(userId);
    if (!row) return NO_PROFILE;
    return { speaks: row.languages, learning: row.learning, country: row.country, hideCountry: row.privateFields.includes('country') };
  };
}

/**
 * Profiles as matching reads them, each read once and kept (a person searches again and again; a
 * profile rarely changes, and whoever changes it calls `forget`). Kept for `ttlMs` at most, and
 * for at most `max` people (the oldest go first).
 */
export function cachedMatchProfiles(
  read: (userId: string) => Promise<MatchProfile>,
  { ttlMs = 10 * 60_000, max = 200_000, now = Date.now } = {},
) {
  const kept = new Map<string, { at: number; profile: Promise<MatchProfile> }>();
  return {
    get(userId: string): Promise<MatchProfile> {
      const hit = kept.get(userId);
      if (hit && now() - hit.at < ttlMs) return hit.profile;
      const profile = read(userId);
      kept.delete(userId);
      kept.set(userId, { at: now(), profile });
      // A failed read is not kept: the next search reads again.
      profile.catch(() => {
        if (kept.get(userId)?.profile === profile) kept.delete(userId);
      });
      if (kept.size > max) kept.delete(kept.keys().next().value!);
      return profile;
    },
    forget(userId: string) {
      kept.delete(userId);
    },
  };
}

/** A profile without languages takes the browser's at its first search (only while it still has none). */
export function saveDefaultLanguages(db: Db) {
  return async (userId: string, languages: string[]) => {
    await db
      .update(users)
      .set({ languages })
      .where(and(eq(users.id, userId), sql`${users.languages} = '[]'::jsonb`));
  };
}

/** The languages of an Accept-Language header (`es-MX,es;q=0.9,en;q=0.8`), first choices first. */
export function languagesOfHeader(header: string | undefined): string[] {
  if (!header) return [];
  return languagesOfLocales(
    header
      .slice(0, 200)
      .split(',')
      .map((part) => part.split(';')[0]!.trim()),
  );
}

export const COUNTRY_UNKNOWN = 'Parley does not know your country. Choose it in your profile to meet people near you.';

/**
 * How a search's language and country filters read for the matcher: the country a person shows
 * (none when they keep it from strangers: then it serves only their own "near me"), and the
 * countries they require (a list, and near me: their own country and its neighbours).
 */
export function matchTerms(profile: MatchProfile, detectedCountry: string | null, filters: ChatFilters) {
  const own = profile.country ?? detectedCountry;
  const countries = new Set(filters.countries ?? []);
  if (filters.nearMe) {
    if (own === null) throw new Refusal(COUNTRY_UNKNOWN, 'country_unknown');
    for (const c of nearCountries(own)) countries.add(c);
  }
  return {
    speaks: profile.speaks,
    learning: profile.learning,
    country: profile.hideCountry ? null : own,
    requireLanguages: filters.languages ?? [],
    requireCountries: [...countries],
  };
}
