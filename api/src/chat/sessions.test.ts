import { describe, expect, it } from 'vitest';
import type { TokenUser } from '@parley/contract/auth';
import { chatEvents, type SocketError, type StartSearch } from '@parley/contract/chat';
import { rtcEvents, MAX_CALL_ATTEMPTS } from '@parley/contract/rtc';
import { createInProcessMatchmaker } from './matchmaker.ts';
import { ChatSessions, type ChatOutbox } from './sessions.ts';

const user = (userId: string): TokenUser => ({
  userId,
  username: userId,
  avatar: '',
  gender: 'male',
  age: 30,
  isVerified: true,
  premiumUser: 'free tier',
});

const search: StartSearch = {
  roomType: 'textChat',
  automaticReconnect: true,
  filters: { topics: [], gender: 'All', ageRange: { minAge: 18, maxAge: 99 } },
};

/** Records what each socket was sent. */
function recordingOutbox() {
  const sent: Array<[string, string, unknown]> = [];
  const outbox: ChatOutbox = {
    searching: (id, p) => sent.push([id, chatEvents.searching, p]),
    matched: (id, p) => sent.push([id, chatEvents.matched, p]),
    partnerLeft: (id, p) => sent.push([id, chatEvents.partnerLeft, p]),
    typing: (id, p) => sent.push([id, chatEvents.typing, p]),
    error: (id, p) => sent.push([id, chatEvents.error, p]),
    partnerAway: (id, p) => sent.push([id, chatEvents.partnerAway, p]),
    partnerBack: (id, p) => sent.push([id, chatEvents.partnerBack, p]),
    redial: (id, p) => sent.push([id, rtcEvents.redial, p]),
    deliver: (_id, _m, done) => done(true),
  };
  return { sent, outbox };
}

describe('chat sessions', () => {
  it('a requeue that fails stops the search and tells the client, instead of searching for ever', async () => {
    const { sent, outbox } = recordingOutbox();
    let blocksFail = false;
    const errors: unknown[] = [];
    const sessions = new ChatSessions({
      outbox,
      createMatchmaker: (onMatch) => createInProcessMatchmaker(onMatch),
      blocksOf: async () => {
        if (blocksFail) throw new Error('database unavailable');
        return new Set<string>();
      },
      recordTopics: () => undefined,
      allowMessage: () => true,
      onError: (err) => errors.push(err),
    });
    sessions.connect('a', user('ua'));
    sessions.connect('b', user('ub'));
    await sessions.start('a', search);
    await sessions.start('b', search);
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
    sessions.connect('c', user('uc'));
    await sessions.start('c', search);
    await sessions.start('a', search);
    const matched = sent.slice(before).filter(([, ev]) => ev === chatEvents.matched);
    expect(matched.map(([id]) => id).sort()).toEqual(['a', 'c']);
    await sessions.close();
  });
});

/** Sessions over a recording outbox, with no blocks and a given grace for dropped pages. */
function heldSessions(resumeGraceMs: number) {
  const { sent, outbox } = recordingOutbox();
  const sessions = new ChatSessions({
    outbox,
    createMatchmaker: (onMatch) => createInProcessMatchmaker(onMatch),
    blocksOf: async () => new Set<string>(),
    recordTopics: () => undefined,
    allowMessage: () => true,
    onError: (err) => {
      throw err;
    },
    resumeGraceMs,
  });
  return { sent, sessions };
}

/** Two users a and b in a text chat room; a short grace so that expiry can be waited for. */
async function chatting(over: { resumeGraceMs?: number; search?: StartSearch } = {}) {
  const { sent, sessions } = heldSessions(over.resumeGraceMs ?? 100);
  const s = over.search ?? { ...search, automaticReconnect: false };
  sessions.connect('a', user('ua'));
  sessions.connect('b', user('ub'));
  await sessions.start('a', s);
  await sessions.start('b', s);
  const roomId = (sent.find(([id, ev]) => id === 'a' && ev === chatEvents.matched)![2] as { roomId: string }).roomId;
  const to = (socketId: string) => sent.filter(([id]) => id === socketId).map(([, ev, p]) => [ev, p]);
  return { sessions, sent, roomId, to };
}

describe('resuming a text chat after a dropped connection', () => {
  it('holds the chat, refuses messages meanwhile, and moves it to the new socket of the same page', async () => {
    const { sessions, roomId, to } = await chatting({ resumeGraceMs: 10_000 });
    await sessions.disconnect('a', 'ua:tab1');
    expect(to('b')).toContainEqual([chatEvents.partnerAway, { roomId }]);
    expect(() => sessions.send('b', { id: 'm1', text: 'are you there?' }, () => undefined)).toThrow(/lost their connection/);

    // Another page of the same user, another room, or another user cannot take it.
    sessions.connect('a2', user('ua'));
    expect(sessions.resume('a2', 'ua:tab2', roomId)).toEqual({ ok: false });
    expect(sessions.resume('a2', 'ua:tab1', 'another-room')).toEqual({ ok: false });
    sessions.connect('x', user('ux'));
    expect(sessions.resume('x', 'ua:tab1', roomId)).toEqual({ ok: false });

    expect(sessions.resume('a2', 'ua:tab1', roomId)).toEqual({ ok: true, partnerAway: false });
    expect(to('b')).toContainEqual([chatEvents.partnerBack, { roomId }]);
    // Messages flow both ways again, to the new socket.
    const acks: unknown[] = [];
    sessions.send('b', { id: 'm2', text: 'welcome back' }, (a) => acks.push(a));
    sessions.send('a2', { id: 'm3', text: 'thanks' }, (a) => acks.push(a));
    expect(acks).toHaveLength(2);
    // Resumed once: a second resume of the same page finds nothing held.
    expect(sessions.resume('a2', 'ua:tab1', roomId)).toEqual({ ok: false });
    // Leaving for real still ends it for the partner.
    await sessions.stop('a2');
    expect(to('b').at(-1)).toEqual([chatEvents.partnerLeft, { roomId, reason: 'left' }]);
    await sessions.close();
  });

  it('a held chat whose partner left goes at the end of the grace if its page never asks', async () => {
    const { sessions } = await chatting({ resumeGraceMs: 50 });
    await sessions.disconnect('a', 'ua:tab1');
    await sessions.stop('b');
    expect(sessions.size).toBe(2);
    await new Promise((r) => setTimeout(r, 100));
    expect(sessions.size).toBe(1);
    await sessions.close();
  });

  it('past the grace the partner is told the stranger disconnected, and is requeued with automatic reconnect', async () => {
    const { sessions, roomId, to } = await chatting({ search });
    await sessions.disconnect('a', 'ua:tab1');
    expect(to('b').at(-1)).toEqual([chatEvents.partnerAway, { roomId }]);
    await new Promise((r) => setTimeout(r, 150));
    expect(to('b')).toContainEqual([chatEvents.partnerLeft, { roomId, reason: 'disconnected' }]);
    expect(to('b').at(-1)).toEqual([chatEvents.searching, expect.objectContaining({ requeued: true })]);
    sessions.connect('a2', user('ua'));
    expect(sessions.resume('a2', 'ua:tab1', roomId)).toEqual({ ok: false });
    await sessions.close();
  });

  it('a partner who leaves meanwhile ends the held chat: the page is told so when it asks', async () => {
    const { sessions, roomId, to } = await chatting({ resumeGraceMs: 10_000 });
    await sessions.disconnect('a', 'ua:tab1');
    await sessions.next('b');
    sessions.connect('a2', user('ua'));
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
    sessions.connect('a2', user('ua'));
    expect(sessions.resume('a2', 'ua:tab1', roomId)).toEqual({ ok: true, partnerAway: true });
    sessions.connect('b2', user('ub'));
    expect(sessions.resume('b2', 'ub:tab1', roomId)).toEqual({ ok: true, partnerAway: false });
    expect(to('a2')).toContainEqual([chatEvents.partnerBack, { roomId }]);
    const acks: unknown[] = [];
    sessions.send('a2', { id: 'm', text: 'hi again' }, (a) => acks.push(a));
    expect(acks).toEqual([expect.objectContaining({ ok: true, delivered: true })]);
    await sessions.close();
  });

  it('ending a sign-in or a user ends the chats held for their pages, and only theirs', async () => {
    const { sent, sessions } = heldSessions(10_000);
    const text = { ...search, automaticReconnect: false };
    for (const [id, sid] of [
      ['a', 'sid-a'],
      ['b', 'sid-b'],
      ['c', 'sid-c'],
      ['d', 'sid-d'],
    ] as const) {
      sessions.connect(id, user(`u${id}`), sid);
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

  it('a page that never learnt of its match and sends its search again gets that room', async () => {
    // a's connection dropped as it was matched: `matched` went to the dead socket.
    const s1 = { ...search, automaticReconnect: false, searchId: 's1' };
    const { sessions, roomId, to } = await chatting({ resumeGraceMs: 10_000, search: s1 });
    const matchedA = to('a').find(([ev]) => ev === chatEvents.matched)![1] as Record<string, unknown>;
    await sessions.disconnect('a', 'ua:tab1');
    sessions.connect('a2', user('ua'));
    // Back, it sends the search under way again, under the same id.
    await sessions.start('a2', s1, 'ua:tab1');
    expect(to('a2')).toEqual([[chatEvents.matched, matchedA]]);
    expect(to('b').slice(-2)).toEqual([
      [chatEvents.partnerAway, { roomId }],
      [chatEvents.partnerBack, { roomId }],
    ]);
    const acks: unknown[] = [];
    sessions.send('b', { id: 'm1', text: 'hello?' }, (a) => acks.push(a));
    sessions.send('a2', { id: 'm2', text: 'hi' }, (a) => acks.push(a));
    expect(acks).toEqual([expect.objectContaining({ delivered: true }), expect.objectContaining({ delivered: true })]);
    // Nothing is held any more for that page.
    sessions.connect('a3', user('ua'));
    expect(sessions.resume('a3', 'ua:tab1', roomId)).toEqual({ ok: false });
    await sessions.close();
  });

  it('... and is told the stranger is away when both dropped', async () => {
    const s1 = { ...search, automaticReconnect: false, searchId: 's1' };
    const { sessions, roomId, to } = await chatting({ resumeGraceMs: 10_000, search: s1 });
    await sessions.disconnect('a', 'ua:tab1');
    await sessions.disconnect('b', 'ub:tab1');
    sessions.connect('a2', user('ua'));
    await sessions.start('a2', s1, 'ua:tab1');
    expect(to('a2')).toEqual([
      [chatEvents.matched, expect.objectContaining({ roomId })],
      [chatEvents.partnerAway, { roomId }],
    ]);
    await sessions.close();
  });

  it('a video room comes back the same way, with the attempt of its call under way', async () => {
    const v1 = { ...search, roomType: 'videoChat' as const, automaticReconnect: false, searchId: 'v1' };
    const { sessions, roomId, to } = await chatting({ resumeGraceMs: 10_000, search: v1 });
    const matchedA = to('a').find(([ev]) => ev === chatEvents.matched)![1] as Record<string, unknown>;
    // b's call failed before the server knew a had gone: it was placed again, a never heard of it.
    sessions.redial('b', { roomId, attempt: 0 });
    await sessions.disconnect('a', 'ua:tab1');
    sessions.connect('a2', user('ua'));
    await sessions.start('a2', v1, 'ua:tab1');
    expect(to('a2')).toEqual([[chatEvents.matched, { ...matchedA, callAttempt: 1 }]]);
    expect(to('b').at(-1)).toEqual([chatEvents.partnerBack, { roomId }]);
    await sessions.close();
  });

  it('a page back with another search, or stopping, ends its held chat at once', async () => {
    const s1 = { ...search, automaticReconnect: false, searchId: 's1' };
    const video = { ...s1, roomType: 'videoChat' as const };
    for (const [first, back] of [
      // A Next (or a Stop, then Start) lost with the old connection: a new search id. The page
      // must not be put back with the stranger it left.
      [s1, (x: ChatSessions) => x.start('a2', { ...s1, searchId: 's2' }, 'ua:tab1')],
      [s1, (x: ChatSessions) => x.start('a2', { ...s1, filters: { ...s1.filters, topics: ['chess'] } }, 'ua:tab1')],
      [s1, (x: ChatSessions) => x.start('a2', { ...s1, searchId: undefined }, 'ua:tab1')],
      [video, (x: ChatSessions) => x.start('a2', { ...video, searchId: 'v2' }, 'ua:tab1')],
      [s1, (x: ChatSessions) => x.stop('a2', 'ua:tab1')],
    ] as const) {
      const { sessions, roomId, to } = await chatting({ resumeGraceMs: 10_000, search: first });
      await sessions.disconnect('a', 'ua:tab1');
      sessions.connect('a2', user('ua'));
      await back(sessions);
      expect(to('b').at(-1)).toEqual([chatEvents.partnerLeft, { roomId, reason: 'disconnected' }]);
      expect(to('a2')).not.toContainEqual([chatEvents.matched, expect.anything()]);
      await sessions.close();
    }
  });

  it("another user's page cannot take or end a held chat by searching or stopping", async () => {
    const { sessions, roomId, to } = await chatting({
      resumeGraceMs: 10_000,
      search: { ...search, automaticReconnect: false, searchId: 's1' },
    });
    await sessions.disconnect('a', 'ua:tab1');
    sessions.connect('x', user('ux'));
    await sessions.start('x', { ...search, automaticReconnect: false, searchId: 's1' }, 'ua:tab1');
    await sessions.stop('x', 'ua:tab1');
    expect(to('x')).not.toContainEqual([chatEvents.matched, expect.anything()]);
    expect(to('b').at(-1)).toEqual([chatEvents.partnerAway, { roomId }]);
    sessions.connect('a2', user('ua'));
    expect(sessions.resume('a2', 'ua:tab1', roomId)).toEqual({ ok: true, partnerAway: false });
    await sessions.close();
  });

  it('a drop without a page id, or of a search, is not held; a video chat is, as a text chat', async () => {
    const { sessions, roomId, to } = await chatting();
    await sessions.disconnect('a');
    expect(to('b').at(-1)).toEqual([chatEvents.partnerLeft, { roomId, reason: 'disconnected' }]);
    sessions.connect('s', user('us'));
    await sessions.start('s', { ...search, filters: { ...search.filters, gender: 'female' } });
    await sessions.disconnect('s', 'us:tab1');
    expect(sessions.size).toBe(1);
    await sessions.close();

    const video = await chatting({ search: { ...search, roomType: 'videoChat', automaticReconnect: false } });
    await video.sessions.disconnect('a', 'ua:tab1');
    expect(video.to('b').at(-1)).toEqual([chatEvents.partnerAway, { roomId: video.roomId }]);
    await video.sessions.close();
  });
});

describe('placing a video call again', () => {
  const video = { ...search, roomType: 'videoChat' as const, automaticReconnect: false };
  const redials = (to: (id: string) => unknown[][]) => to('a').filter(([ev]) => ev === rtcEvents.redial);

  it('answers the first ask of an attempt to both sides, and tells a late asker the current attempt', async () => {
    const { sessions, roomId, to } = await chatting({ search: video });
    sessions.redial('a', { roomId, attempt: 0 });
    expect(to('a').at(-1)).toEqual([rtcEvents.redial, { roomId, attempt: 1 }]);
    expect(to('b').at(-1)).toEqual([rtcEvents.redial, { roomId, attempt: 1 }]);
    // b asked for attempt 0 too, before it heard: only b hears again, nothing is placed twice.
    sessions.redial('b', { roomId, attempt: 0 });
    expect(to('b').filter(([ev]) => ev === rtcEvents.redial)).toEqual([
      [rtcEvents.redial, { roomId, attempt: 1 }],
      [rtcEvents.redial, { roomId, attempt: 1 }],
    ]);
    expect(redials(to)).toHaveLength(1);
    // An attempt that was never placed places nothing either: the asker learns the current one.
    sessions.redial('a', { roomId, attempt: 2 });
    expect(redials(to)).toEqual([
      [rtcEvents.redial, { roomId, attempt: 1 }],
      [rtcEvents.redial, { roomId, attempt: 1 }],
    ]);
    expect(to('b').filter(([ev]) => ev === rtcEvents.redial)).toHaveLength(2);
    await sessions.close();
  });

  it('a page that takes its room back learns the attempt its call was placed again under meanwhile', async () => {
    const { sessions, roomId } = await chatting({ search: video, resumeGraceMs: 10_000 });
    sessions.redial('b', { roomId, attempt: 0 }); // a's socket is already dead; the server does not know yet
    await sessions.disconnect('a', 'ua:tab1');
    sessions.connect('a2', user('ua'));
    expect(sessions.resume('a2', 'ua:tab1', roomId)).toEqual({ ok: true, partnerAway: false, callAttempt: 1 });
    await sessions.close();
  });

  it('stops after MAX_CALL_ATTEMPTS, waits for an away partner, and refuses other rooms and text rooms', async () => {
    const { sessions, roomId, to } = await chatting({ search: video, resumeGraceMs: 10_000 });
    for (let attempt = 0; attempt < MAX_CALL_ATTEMPTS - 1; attempt++) sessions.redial('a', { roomId, attempt });
    expect(redials(to).at(-1)).toEqual([rtcEvents.redial, { roomId, attempt: MAX_CALL_ATTEMPTS - 1 }]);
    expect(() => sessions.redial('a', { roomId, attempt: MAX_CALL_ATTEMPTS - 1 })).toThrow(
      expect.objectContaining({ code: 'call_attempts_exhausted' }),
    );
    // The partner, whose call merely stopped, is told too.
    expect(to('b').at(-1)).toEqual([
      chatEvents.error,
      expect.objectContaining({ event: rtcEvents.redial, code: 'call_attempts_exhausted' }),
    ]);
    expect(() => sessions.redial('a', { roomId: 'another-room', attempt: 0 })).toThrow(expect.objectContaining({ code: 'not_in_room' }));
    sessions.connect('x', user('ux'));
    expect(() => sessions.redial('x', { roomId, attempt: 0 })).toThrow(expect.objectContaining({ code: 'not_in_room' }));
    await sessions.close();

    const away = await chatting({ search: video, resumeGraceMs: 10_000 });
    await away.sessions.disconnect('b', 'ub:tab1');
    expect(() => away.sessions.redial('a', { roomId: away.roomId, attempt: 0 })).toThrow(expect.objectContaining({ code: 'partner_away' }));
    away.sessions.connect('b2', user('ub'));
    expect(away.sessions.resume('b2', 'ub:tab1', away.roomId)).toEqual({ ok: true, partnerAway: false });
    away.sessions.redial('a', { roomId: away.roomId, attempt: 0 });
    expect(away.to('b2').at(-1)).toEqual([rtcEvents.redial, { roomId: away.roomId, attempt: 1 }]);
    await away.sessions.close();

    const text = await chatting();
    expect(() => text.sessions.redial('a', { roomId: text.roomId, attempt: 0 })).toThrow(expect.objectContaining({ code: 'not_in_room' }));
    await text.sessions.close();
  });
});
