import { describe, expect, it, vi } from 'vitest';
import { chatEvents } from '@parley/contract/matchmaking';
import { anySearch, chatRig, chatting, testUser } from '../testing/chatRig.ts';

describe('resuming a room after a dropped connection', () => {
  it('holds the chat, keeps the dropped page its seat meanwhile, and moves it to the new socket of the same page', async () => {
    const { sessions, roomId, to } = await chatting({ resumeGraceMs: 10_000 });
    await sessions.disconnect('a', 'ua:tab1');
    expect(to('b')).toContainEqual([chatEvents.partnerAway, { roomId }]);
    // Still the chat's member through the grace, under the socket it lost (what the partner posts is kept for it).
    expect(sessions.seated(roomId, 'ua', 'a')).toBe(true);

    // Another page of the same user, another room, or another user cannot take it.
    sessions.connect('a2', testUser('ua'));
    expect(sessions.resume('a2', 'ua:tab2', roomId)).toEqual({ ok: false });
    expect(sessions.resume('a2', 'ua:tab1', 'another-room')).toEqual({ ok: false });
    sessions.connect('x', testUser('ux'));
    expect(sessions.resume('x', 'ua:tab1', roomId)).toEqual({ ok: false });

    expect(sessions.resume('a2', 'ua:tab1', roomId)).toEqual({ ok: true, partnerAway: false });
    expect(to('b')).toContainEqual([chatEvents.partnerBack, { roomId }]);
    // The new socket is the page's seat in the chat now, and the old one is not.
    expect([sessions.seated(roomId, 'ua', 'a2'), sessions.seated(roomId, 'ua', 'a'), sessions.seated(roomId, 'ub', 'b')]).toEqual([
      true,
      false,
      true,
    ]);
    // Resumed once: a second resume of the same page finds nothing held.
    expect(sessions.resume('a2', 'ua:tab1', roomId)).toEqual({ ok: false });
    // Leaving for real still ends it for the partner.
    await sessions.stop('a2');
    expect(to('b').at(-1)).toEqual([chatEvents.partnerLeft, { roomId, reason: 'left' }]);
    await sessions.close();
  });

  it('a held chat whose partner left goes at the end of the grace if its page never asks', async () => {
    // A grace a busy machine cannot outrun between the two steps below, and a wait for its end.
    const { sessions } = await chatting({ resumeGraceMs: 1000 });
    await sessions.disconnect('a', 'ua:tab1');
    await sessions.stop('b');
    expect(sessions.size).toBe(2);
    await vi.waitFor(() => expect(sessions.size).toBe(1), { timeout: 10_000, interval: 50 });
    await sessions.close();
  });

  it('past the grace the partner is told the stranger disconnected, and is requeued with automatic reconnect', async () => {
    const { sessions, roomId, to } = await chatting({ search: anySearch });
    await sessions.disconnect('a', 'ua:tab1');
    expect(to('b').at(-1)).toEqual([chatEvents.partnerAway, { roomId }]);
    // The grace (100 ms) ends, then the requeue reads the database: waited for, as a busy machine may take longer.
    await vi.waitFor(
      () => {
        expect(to('b')).toContainEqual([chatEvents.partnerLeft, { roomId, reason: 'disconnected' }]);
        expect(to('b').at(-1)).toEqual([chatEvents.searching, expect.objectContaining({ requeued: true })]);
      },
      { timeout: 10_000, interval: 50 },
    );
    sessions.connect('a2', testUser('ua'));
    expect(sessions.resume('a2', 'ua:tab1', roomId)).toEqual({ ok: false });
    await sessions.close();
  });

  it('a partner who leaves meanwhile ends the held chat: the page is told so when it asks', async () => {
    const { sessions, roomId, to } = await chatting({ resumeGraceMs: 10_000 });
    await sessions.disconnect('a', 'ua:tab1');
    await sessions.next('b');
    sessions.connect('a2', testUser('ua'));
    expect(sessions.resume('a2', 'ua:tab2', roomId)).toEqual({ ok: false });
    expect(sessions.resume('a2', 'ua:tab1', roomId)).toEqual({ ok: false, partnerLeft: true });
    expect(sessions.resume('a2', 'ua:tab1', roomId)).toEqual({ ok: false });
    expect(to('a')).not.toContainEqual([chatEvents.partnerLeft, expect.anything()]);
    expect(sessions.size).toBe(2); // b (searching again) and a2
    await sessions.close();
  });

  it('both dropped: each resumes, and the first back learns that the other is still away', async () => {
    const { sessions, roomId, to } = await chatting({ resumeGraceMs: 10_000 });
    await sessions.disconnect('a', 'ua:tab1');
    await sessions.disconnect('b', 'ub:tab1');
    sessions.connect('a2', testUser('ua'));
    expect(sessions.resume('a2', 'ua:tab1', roomId)).toEqual({ ok: true, partnerAway: true });
    sessions.connect('b2', testUser('ub'));
    expect(sessions.resume('b2', 'ub:tab1', roomId)).toEqual({ ok: true, partnerAway: false });
    expect(to('a2')).toContainEqual([chatEvents.partnerBack, { roomId }]);
    expect([sessions.seated(roomId, 'ua', 'a2'), sessions.seated(roomId, 'ub', 'b2')]).toEqual([true, true]);
    await sessions.close();
  });

  it('ending a sign-in or a user ends the chats held for their pages, and only theirs', async () => {
    const sessions = chatRig({ resumeGraceMs: 10_000 });
    const { sent } = sessions;
    const text = { ...anySearch, automaticReconnect: false };
    for (const [id, sid] of [
      ['a', 'sid-a'],
      ['b', 'sid-b'],
      ['c', 'sid-c'],
      ['d', 'sid-d'],
    ] as const) {
      sessions.connect(id, testUser(`u${id}`), sid);
      await sessions.start(id, text);
    }
    await sessions.disconnect('a', 'ua:t');
    await sessions.disconnect('c', 'uc:t');
    // Each start is matched with the one waiting: a with b, c with d.
    const receiverOf = (id: string) =>
      (sent.find(([to, ev]) => to === id && ev === chatEvents.matched)![2] as { receiver: { userId: string } }).receiver.userId;
    expect([receiverOf('b'), receiverOf('d')]).toEqual(['ua', 'uc']);
    const partnerOf = (id: string) => ({ a: 'b', c: 'd' })[id]!;
    sessions.endHeld({ sid: 'sid-b' }); // b is connected: nothing held for it
    sessions.endHeld({ sid: 'sid-a' });
    expect(sent.filter(([to, ev]) => to === partnerOf('a') && ev === chatEvents.partnerLeft)).toHaveLength(1);
    expect(sent.filter(([to, ev]) => to === partnerOf('c') && ev === chatEvents.partnerLeft)).toHaveLength(0);
    sessions.endHeld({ userId: 'uc' });
    expect(sent.filter(([to, ev]) => to === partnerOf('c') && ev === chatEvents.partnerLeft)).toHaveLength(1);
    await sessions.close();
  });

  it('a drop without a page id, or of a search, is not held; a video chat is, as a text chat', async () => {
    const { sessions, roomId, to } = await chatting();
    await sessions.disconnect('a');
    expect(to('b').at(-1)).toEqual([chatEvents.partnerLeft, { roomId, reason: 'disconnected' }]);
    sessions.connect('s', testUser('us'));
    await sessions.start('s', { ...anySearch, filters: { ...anySearch.filters, gender: 'female' } });
    await sessions.disconnect('s', 'us:tab1');
    expect(sessions.size).toBe(1);
    await sessions.close();

    const video = await chatting({ search: { ...anySearch, roomType: 'videoChat', automaticReconnect: false } });
    await video.sessions.disconnect('a', 'ua:tab1');
    expect(video.to('b').at(-1)).toEqual([chatEvents.partnerAway, { roomId: video.roomId }]);
    await video.sessions.close();
  });
});
