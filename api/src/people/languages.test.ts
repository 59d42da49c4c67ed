import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OwnProfile, UserProfile } from '@parley/contract/people';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { member, type Member } from '../testing/people.ts';

describe('profile languages and a hidden country', () => {
  let server: TestServer;
  let ana: Member;
  let bob: Member;
  beforeAll(async () => {
    server = await startTestServer();
    ana = await member(server);
    bob = await member(server);
  });
  afterAll(() => server.close());

  const patch = (m: Member, json: unknown) => m.call('/api/profile', { method: 'PATCH', json });

  it('stores the languages spoken and learnt, each once, and refuses codes not on the list', async () => {
    const res = await patch(ana, { languages: ['EN', 'es', 'en'], learning: ['ja'] });
    expect(res.status).toBe(200);
    const p = (await res.json()) as OwnProfile;
    expect(p).toMatchObject({ languages: ['en', 'es'], learning: ['ja'] });
    // Loopback: no country is detected.
    expect(p.detectedCountry).toBeNull();
    for (const bad of [
      { languages: ['xx'] },
      { learning: ['english'] },
      { languages: ['en', 'es', 'fr', 'de', 'it', 'pt'] },
      { languages: 'en' },
    ]) {
      const r = await patch(ana, bad);
      expect(r.status, JSON.stringify(bad)).toBe(400);
      expect(((await r.json()) as { message: string }).message).toMatch(/language|At most 5|expected/i);
    }
  });

  it('shows a stranger the languages but never a country kept private', async () => {
    expect((await patch(ana, { country: 'BR', privateFields: ['country'] })).status).toBe(200);
    const res = await bob.call(`/api/users/${ana.username}`);
    expect(res.status).toBe(200);
    const text = await res.text();
    const card = JSON.parse(text) as UserProfile;
    expect(card.languages).toEqual(['en', 'es']);
    expect(card.country).toBeUndefined();
    expect(text).not.toContain('"BR"');
  });
});
