import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GroupDetail, GroupList } from '@parley/contract/groups';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { member, type Member } from '../testing/people.ts';

describe('group rooms by language', () => {
  let server: TestServer;
  let owner: Member;
  let reader: Member;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    server = await startTestServer();
    owner = await member(server);
    reader = await member(server);
    for (const [name, language] of [
      ['Charla tranquila', 'es'],
      ['Nihongo corner', 'ja'],
      ['No language said', null],
    ] as const) {
      const res = await owner.call('/api/groups', { method: 'POST', json: { name, category: 'Languages', language } });
      expect(res.status).toBe(201);
      const room = (await res.json()) as GroupDetail;
      expect(room.language).toBe(language);
      ids[name] = room.roomId;
    }
  });
  afterAll(() => server.close());

  const list = async (m: Member, query = '') => {
    const res = await m.call(`/api/groups${query}`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as GroupList;
    return { languages: body.languages, names: body.rooms.map((r) => r.name) };
  };

  it('defaults to the person’s languages (and rooms that name none), filters by one, or shows all', async () => {
    // No languages in the profile: everything.
    expect((await list(reader)).names).toEqual(expect.arrayContaining(['Charla tranquila', 'Nihongo corner', 'No language said']));
    expect((await reader.call('/api/profile', { method: 'PATCH', json: { languages: ['es'] } })).status).toBe(200);
    const mine = await list(reader);
    expect(mine.languages).toEqual(['es']);
    expect(mine.names).toEqual(expect.arrayContaining(['Charla tranquila', 'No language said']));
    expect(mine.names).not.toContain('Nihongo corner');
    const ja = await list(reader, '?language=ja');
    expect(ja.names).toContain('Nihongo corner');
    expect(ja.names).not.toContain('Charla tranquila');
    expect(ja.names).not.toContain('No language said');
    expect((await list(reader, '?language=any')).names).toEqual(expect.arrayContaining(['Charla tranquila', 'Nihongo corner']));
  });

  it('refuses a language not on the list', async () => {
    expect((await reader.call('/api/groups?language=klingon')).status).toBe(400);
    const bad = await owner.call('/api/groups', { method: 'POST', json: { name: 'Bad one', category: 'Other', language: 'zz' } });
    expect(bad.status).toBe(400);
  });
});
