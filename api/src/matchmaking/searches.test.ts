import { describe, expect, it } from 'vitest';
import { chatEvents, type SearchStatus, type SocketError } from '@parley/contract/matchmaking';
import { anySearch, chatRig, chatting, testUser, type ChatRig } from '../testing/chatRig.ts';
import { NO_PROFILE } from './matchProfile.ts';

describe('searches', () => {
  it('a requeue that fails stops the search and tells the client, instead of searching for ever', async () => {
    let blocksFail = false;
    const errors: unknown[] = [];
    const sessions = chatRig({
      blocksOf: async () => {
        if (blocksFail) throw new Error('database unavailable');
        return new Set<string>();
      },
      onError: (err) => errors.push(err),
    });
    const { sent } = sessions;
    sessions.connect('a', testUser('ua'));
    sessions.connect('b', testUser('ub'));
    await sessions.start('a', anySearch);
    await sessions.start('b', anySearch);
    expect(
      sent
        .filter(([, ev]) => ev === chatEvents.matched)
        .map(([id]) => id)
        .sort(),
    ).toEqual(['a', 'b']);

    // b skips; a has automatic reconnect, so the server requeues a, and that fails.
    blocksFail = true;
    await sessions.next('b').catch(() => undefined);
    await new Promise((r) => setTimeout(r, 20));
    const toA = sent.filter(([id]) => id === 'a').map(([, ev, p]) => [ev, p]);
    expect(toA).toContainEqual([chatEvents.partnerLeft, expect.objectContaining({ reason: 'skip' })]);
    expect(toA.at(-1)).toEqual([
      chatEvents.error,
      { event: chatEvents.next, message: expect.any(String), code: 'internal' } satisfies SocketError,
    ]);
    expect(errors.length).toBeGreaterThan(0);

    // a is not left half searching: a new start works once the database is back.
    blocksFail = false;
    const before = sent.length;
    sessions.connect('c', testUser('uc'));
    await sessions.start('c', anySearch);
    await sessions.start('a', anySearch);
    const matched = sent.slice(before).filter(([, ev]) => ev === chatEvents.matched);
    expect(matched.map(([id]) => id).sort()).toEqual(['a', 'c']);
    await sessions.close();
  });
});

describe('what a search reads', () => {
  it('reads the block list, the profile and the review state when the page connects, so starting waits for none of them', async () => {
    const asked: string[] = [];
    const ask =
      <T>(what: string, answer: T) =>
      async (userId: string) => {
        asked.push(`${what} ${userId}`);
        return answer;
      };
    const sessions = chatRig({
      blocksOf: ask('blocks', new Set<string>()),
      inReview: ask('review', false),
      profileOf: ask('profile', NO_PROFILE),
    });
    sessions.connect('a', testUser('ua'));
    expect(asked.sort()).toEqual(['blocks ua', 'profile ua', 'review ua']);
    await sessions.close();
  });
});

describe('a page back from a drop that sends its search again', () => {
  it('a page that never learnt of its match and sends its search again gets that room', async () => {
    // a's connection dropped as it was matched: `matched` went to the dead socket.
    const s1 = { ...anySearch, automaticReconnect: false, searchId: 's1' };
    const { sessions, roomId, to } = await chatting({ resumeGraceMs: 10_000, search: s1 });
    const matchedA = to('a').find(([ev]) => ev === chatEvents.matched)![1] as Record<string, unknown>;
    await sessions.disconnect('a', 'ua:tab1');
    sessions.connect('a2', testUser('ua'));
    // Back, it sends the search under way again, under the same id.
    await sessions.start('a2', s1, 'ua:tab1');
    expect(to('a2')).toEqual([[chatEvents.matched, matchedA]]);
    expect(to('b').slice(-2)).toEqual([
      [chatEvents.partnerAway, { roomId }],
      [chatEvents.partnerBack, { roomId }],
    ]);
    // The new socket is the page's seat in the chat.
    expect([sessions.seated(roomId, 'ua', 'a2'), sessions.seated(roomId, 'ub', 'b')]).toEqual([true, true]);
    // Nothing is held any more for that page.
    sessions.connect('a3', testUser('ua'));
    expect(sessions.resume('a3', 'ua:tab1', roomId)).toEqual({ ok: false });
    await sessions.close();
  });

  it('... and is told the stranger is away when both dropped', async () => {
    const s1 = { ...anySearch, automaticReconnect: false, searchId: 's1' };
    const { sessions, roomId, to } = await chatting({ resumeGraceMs: 10_000, search: s1 });
    await sessions.disconnect('a', 'ua:tab1');
    await sessions.disconnect('b', 'ub:tab1');
    sessions.connect('a2', testUser('ua'));
    await sessions.start('a2', s1, 'ua:tab1');
    expect(to('a2')).toEqual([
      [chatEvents.matched, expect.objectContaining({ roomId })],
      [chatEvents.partnerAway, { roomId }],
    ]);
    await sessions.close();
  });

  it('a video room comes back the same way, with the attempt of its call under way', async () => {
    const v1 = { ...anySearch, roomType: 'videoChat' as const, automaticReconnect: false, searchId: 'v1' };
    const { sessions, roomId, to } = await chatting({ resumeGraceMs: 10_000, search: v1 });
    const matchedA = to('a').find(([ev]) => ev === chatEvents.matched)![1] as Record<string, unknown>;
    // b's call failed before the server knew a had gone: it was placed again, a never heard of it.
    sessions.redial('b', { roomId, attempt: 0 });
    await sessions.disconnect('a', 'ua:tab1');
    sessions.connect('a2', testUser('ua'));
    await sessions.start('a2', v1, 'ua:tab1');
    expect(to('a2')).toEqual([[chatEvents.matched, { ...matchedA, callAttempt: 1 }]]);
    expect(to('b').at(-1)).toEqual([chatEvents.partnerBack, { roomId }]);
    await sessions.close();
  });

  it('a page back with another search, or stopping, ends its held chat at once', async () => {
    const s1 = { ...anySearch, automaticReconnect: false, searchId: 's1' };
    const video = { ...s1, roomType: 'videoChat' as const };
    for (const [first, back] of [
      // A Next (or a Stop, then Start) lost with the old connection: a new search id. The page
      // must not be put back with the stranger it left.
      [s1, (x: ChatRig) => x.start('a2', { ...s1, searchId: 's2' }, 'ua:tab1')],
      [s1, (x: ChatRig) => x.start('a2', { ...s1, filters: { ...s1.filters, topics: ['chess'] } }, 'ua:tab1')],
      [s1, (x: ChatRig) => x.start('a2', { ...s1, searchId: undefined }, 'ua:tab1')],
      [video, (x: ChatRig) => x.start('a2', { ...video, searchId: 'v2' }, 'ua:tab1')],
      [s1, (x: ChatRig) => x.stop('a2', 'ua:tab1')],
    ] as const) {
      const { sessions, roomId, to } = await chatting({ resumeGraceMs: 10_000, search: first });
      await sessions.disconnect('a', 'ua:tab1');
      sessions.connect('a2', testUser('ua'));
      await back(sessions);
      expect(to('b').at(-1)).toEqual([chatEvents.partnerLeft, { roomId, reason: 'disconnected' }]);
      expect(to('a2')).not.toContainEqual([chatEvents.matched, expect.anything()]);
      await sessions.close();
    }
  });

  it("another user's page cannot take or end a held chat by searching or stopping", async () => {
    const { sessions, roomId, to } = await chatting({
      resumeGraceMs: 10_000,
      search: { ...anySearch, automaticReconnect: false, searchId: 's1' },
    });
    await sessions.disconnect('a', 'ua:tab1');
    sessions.connect('x', testUser('ux'));
    await sessions.start('x', { ...anySearch, automaticReconnect: false, searchId: 's1' }, 'ua:tab1');
    await sessions.stop('x', 'ua:tab1');
    expect(to('x')).not.toContainEqual([chatEvents.matched, expect.anything()]);
    expect(to('b').at(-1)).toEqual([chatEvents.partnerAway, { roomId }]);
    sessions.connect('a2', testUser('ua'));
    expect(sessions.resume('a2', 'ua:tab1', roomId)).toEqual({ ok: true, partnerAway: false });
    await sessions.close();
  });
});

describe('how a waiting search stands', () => {
  const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const statuses = (rig: ChatRig, socketId: string) =>
    rig.sent.filter(([id, ev]) => id === socketId && ev === chatEvents.searchStatus).map(([, , p]) => p as SearchStatus);

  it('says, after a few seconds, that nobody online fits the filters, with who is online and searching', async () => {
    const rig = chatRig({ statusEveryMs: 30 });
    const woman = { ...testUser('w'), gender: 'female' as const, age: 30 };
    rig.connect('m1', testUser('m1'));
    rig.connect('m2', testUser('m2'));
    rig.connect('w', woman);
    // m1 only wants to meet women of 18 to 25: the only woman online is 30.
    const narrow = {
      ...anySearch,
      searchId: 'q1',
      filters: { topics: [], gender: 'female' as const, ageRange: { minAge: 18, maxAge: 25 } },
    };
    await rig.start('m1', narrow);
    // m2 searches too, for women only, so m1 and m2 do not meet.
    await rig.start('m2', { ...anySearch, filters: { ...anySearch.filters, gender: 'female' } });
    expect(statuses(rig, 'm1')).toEqual([]);
    await wait(60);
    expect(statuses(rig, 'm1')[0]).toEqual({ roomType: 'textChat', searchId: 'q1', online: 3, searching: 1, fitting: 0 });
    // Unchanged numbers are not sent again.
    await wait(80);
    expect(statuses(rig, 'm1')).toHaveLength(1);

    // Widened to any age: the woman online fits (she is not searching, so no match yet).
    await rig.start('m1', { ...narrow, searchId: 'q2', filters: { ...narrow.filters, ageRange: { minAge: 18, maxAge: 99 } } });
    await wait(60);
    expect(statuses(rig, 'm1').at(-1)).toEqual({ roomType: 'textChat', searchId: 'q2', online: 3, searching: 1, fitting: 1 });
    await rig.close();
  });

  it('stops with the search: a match, a stop or a disconnect sends nothing more', async () => {
    const rig = chatRig({ statusEveryMs: 20 });
    rig.connect('a', testUser('a'));
    rig.connect('b', { ...testUser('b'), gender: 'female' });
    await rig.start('a', { ...anySearch, filters: { ...anySearch.filters, gender: 'other' } });
    await wait(40);
    expect(statuses(rig, 'a')).toHaveLength(1);
    await rig.stop('a');
    rig.sent.length = 0;
    await rig.start('b', anySearch);
    await rig.start('a', anySearch); // matched at once: no status
    await wait(60);
    expect(statuses(rig, 'a')).toEqual([]);
    expect(statuses(rig, 'b')).toEqual([]);
    await rig.close();
  });
});
