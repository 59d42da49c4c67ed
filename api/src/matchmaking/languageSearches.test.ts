import { describe, expect, it } from 'vitest';
import { chatEvents, roomSetupSchema, type SearchStatus, type SocketError } from '@parley/contract/matchmaking';
import { anySearch, chatRig, testUser } from '../testing/chatRig.ts';
import { languagesOfHeader, type MatchProfile } from './matchProfile.ts';

const profiles: Record<string, MatchProfile> = {
  ua: { speaks: ['en'], learning: ['es'], country: 'FR', hideCountry: true },
  ub: { speaks: ['es'], learning: ['en'], country: null, hideCountry: false },
  uc: { speaks: ['ja'], learning: [], country: null, hideCountry: false },
};
const profileOf = async (userId: string) => profiles[userId] ?? { speaks: [], learning: [], country: null, hideCountry: false };

describe('searches by language and country', () => {
  it('a profile without languages takes the browser’s at its first search, and matches by them', async () => {
    expect(languagesOfHeader('es-MX,es;q=0.9,en;q=0.8,xx;q=0.1')).toEqual(['es', 'en']);
    expect(languagesOfHeader(undefined)).toEqual([]);
    const saved: Array<[string, string[]]> = [];
    const rig = chatRig({
      profileOf,
      saveDefaultLanguages: async (userId, langs) => void saved.push([userId, langs]),
    });
    rig.connect('c', testUser('uc'));
    rig.connect('e', testUser('ue'), undefined, null, ['ja', 'en']);
    // uc waits with a Japanese-only requirement; ue's browser speaks Japanese.
    await rig.start('c', { ...anySearch, filters: { ...anySearch.filters, languages: ['ja'] } });
    await rig.start('e', anySearch);
    expect(saved).toEqual([['ue', ['ja', 'en']]]);
    expect(
      rig.sent
        .filter(([, ev]) => ev === chatEvents.matched)
        .map(([id]) => id)
        .sort(),
    ).toEqual(['c', 'e']);
    await rig.close();
  });

  it('tells both sides of a language exchange, and never sends a hidden country to the stranger', async () => {
    const rig = chatRig({ profileOf });
    rig.connect('a', testUser('ua'), undefined, 'DE');
    rig.connect('b', testUser('ub'), undefined, 'MX');
    await rig.start('a', anySearch);
    await rig.start('b', anySearch);
    const matched = (id: string) => roomSetupSchema.parse(rig.sent.find(([to, ev]) => to === id && ev === chatEvents.matched)![2]);
    expect(matched('a').exchange).toEqual({ youLearn: 'es', theyLearn: 'en' });
    expect(matched('b').exchange).toEqual({ youLearn: 'en', theyLearn: 'es' });
    // b shows the country of their address; a keeps theirs (chosen FR, detected DE) to themselves.
    expect(matched('a').receiver).toMatchObject({ languages: ['es'], country: 'MX' });
    expect(matched('b').receiver.languages).toEqual(['en']);
    expect(matched('b').receiver.country).toBeUndefined();
    const toB = JSON.stringify(rig.sent.filter(([to]) => to === 'b'));
    expect(toB).not.toMatch(/"FR"|"DE"/);
    await rig.close();
  });

  it('refuses near me without a known country, and counts who fits a required language or country', async () => {
    const rig = chatRig({ profileOf, statusEveryMs: 20 });
    rig.connect('c', testUser('uc'), undefined, null);
    await expect(rig.start('c', { ...anySearch, filters: { ...anySearch.filters, nearMe: true } })).rejects.toMatchObject({
      code: 'country_unknown',
    } satisfies Partial<SocketError>);
    rig.connect('b', testUser('ub'), undefined, 'MX');
    await rig.start('c', { ...anySearch, filters: { ...anySearch.filters, languages: ['fr'], countries: ['US'] } });
    const status = await new Promise<SearchStatus>((resolve) => {
      const poll = setInterval(() => {
        const s = rig.sent.find(([to, ev]) => to === 'c' && ev === chatEvents.searchStatus);
        if (s) {
          clearInterval(poll);
          resolve(s[2] as SearchStatus);
        }
      }, 10);
    });
    expect(status).toMatchObject({ fitting: 1, languageFitting: 0, countryFitting: 0 });
    // Someone who speaks French, in the US, comes online: both numbers leave zero.
    profiles.ud = { speaks: ['fr'], learning: [], country: null, hideCountry: false };
    rig.connect('d', testUser('ud'), undefined, 'US');
    await new Promise<void>((resolve) => {
      const poll = setInterval(() => {
        const last = rig.sent.filter(([to, ev]) => to === 'c' && ev === chatEvents.searchStatus).at(-1)![2] as SearchStatus;
        if (last.languageFitting === 1 && last.countryFitting === 1) {
          clearInterval(poll);
          resolve();
        }
      }, 10);
    });
    await rig.close();
  });
});
