import { describe, expect, it } from 'vitest';
import { MESSAGE_MAX_BYTES } from '@parley/contract/constants';
import { randomUUID } from 'node:crypto';
import { chatEvents, type RoomSetup } from '@parley/contract/matchmaking';
import { roomEvents, type RoomMessage } from '@parley/contract/rooms';
import { users } from '../db/schema.ts';
import { joinAll, next, person, postTo, search, silent, socketTestServer } from '../testing/socketClients.ts';

const clients = socketTestServer();
const { open, pair } = clients;

describe('matching and messages', () => {
  it('matches two users, tells each about the other, and relays a message under an id the server gives, with its receipt', async () => {
    const { a, b, ka, kb, ra, rb } = await pair(
      person({ gender: 'female', age: 25 }),
      person({ age: 40 }),
      {
        filters: { topics: ['jazz', 'chess'], gender: 'All', ageRange: { minAge: 18, maxAge: 99 } },
      },
      { filters: { topics: ['chess'], gender: 'female', ageRange: { minAge: 20, maxAge: 30 } } },
    );
    expect(ra.roomId).toBe(rb.roomId);
    expect(ra.roomType).toBe('videoChat');
    expect(ra.receiver).toEqual({ userId: b.userId, username: b.username, avatar: '', age: 40, gender: 'male', sharedTopics: ['chess'] });
    expect(rb.receiver.userId).toBe(a.userId);
    expect(ra.noCommonTopic).toBe(false);
    expect([ra.initiator, rb.initiator].sort()).toEqual([false, true]);
    expect(ra.initiator).toBe(a.userId < b.userId);

    const roomId = ra.roomId;
    await joinAll(roomId, ka, kb);
    const got = next<RoomMessage>(kb, roomEvents.message);
    const answer = await postTo(ka, roomId, 'hello there', 'm1');
    // Both sides get the server's id (1, the room's first) and its receipt (what a report must
    // match); the sender's own id comes back only to recognise its message.
    expect(answer).toEqual({
      ok: true,
      message: expect.objectContaining({
        roomId,
        id: 1,
        senderId: a.userId,
        senderName: a.username,
        text: 'hello there',
        clientId: 'm1',
        receipt: expect.stringMatching(/^[\w-]{22}$/),
      }),
    });
    if (!answer.ok) return;
    expect(await got).toEqual(answer.message);

    const typing = next(kb, roomEvents.typing);
    ka.emit(roomEvents.typing, { roomId, typing: true });
    expect(await typing).toEqual({ roomId, userId: a.userId, username: a.username, typing: true });
  });

  it('refuses oversized, empty, non-text and malformed messages without delivering anything', async () => {
    const { ka, kb, roomId } = await clients.chatting();
    const nothing = silent(kb, roomEvents.message, 800);
    for (const bad of [
      { roomId, clientId: 'x', text: 'é'.repeat(MESSAGE_MAX_BYTES / 2) + 'a' },
      { roomId, clientId: 'x', text: '   ' },
      { roomId, clientId: 'x', text: 42 },
      { roomId, text: 'no id' },
      { roomId, clientId: 'x'.repeat(65), text: 'an id is short' },
      { roomId, clientId: 7, text: 'an id is text' },
      { clientId: 'x', text: 'no room' },
      'just a string',
    ]) {
      const answer: unknown = await ka.timeout(12_000).emitWithAck(roomEvents.post, bad);
      expect(answer).toMatchObject({ ok: false, code: 'validation_failed' });
    }
    // Without an acknowledgement callback the error comes as chat:error.
    const err = next<{ event: string; code: string }>(ka, chatEvents.error);
    ka.emit(roomEvents.post, { roomId, clientId: 'y', text: '' });
    expect(await err).toMatchObject({ event: roomEvents.post, code: 'validation_failed' });
    expect(await nothing).toBe(true);
    // Exactly the limit is fine.
    expect(await postTo(ka, roomId, 'a'.repeat(MESSAGE_MAX_BYTES))).toMatchObject({ ok: true });
  });

  it('refuses invalid filters and messages outside a room', async () => {
    const k = await open(person());
    const err = next<{ event: string; code: string; message: string }>(k, chatEvents.error);
    k.emit(chatEvents.start, { roomType: 'textChat', filters: { ageRange: { minAge: 17, maxAge: 30 } } });
    expect(await err).toMatchObject({ event: chatEvents.start, code: 'validation_failed', message: 'Minimum age is 18' });
    const err2 = next<{ code: string }>(k, chatEvents.error);
    k.emit(chatEvents.start, { roomType: 'groupChat', filters: {} });
    expect((await err2).code).toBe('validation_failed');
    expect(await postTo(k, randomUUID(), 'hi')).toMatchObject({ ok: false, code: 'unknown_room' });
  });

  it('delivers a message at the byte limit that JSON escaping makes twice longer, without dropping the sender', async () => {
    const { ka, kb, roomId } = await clients.chatting();
    const got = next<RoomMessage>(kb, roomEvents.message);
    const text = '"\\'.repeat(MESSAGE_MAX_BYTES / 2);
    expect(await postTo(ka, roomId, text)).toMatchObject({ ok: true });
    expect((await got).text).toBe(text);
    // Control characters (six bytes of JSON each) are refused, and the sender stays connected.
    expect(await postTo(ka, roomId, '\u0001'.repeat(1000))).toMatchObject({ ok: false, code: 'validation_failed' });
    expect(ka.connected).toBe(true);
  });

  it('relays typing signals up to an allowance and drops the rest', async () => {
    const { ka, kb, roomId } = await clients.chatting();
    const seen: boolean[] = [];
    kb.on(roomEvents.typing, (t: { typing: boolean }) => seen.push(t.typing));
    for (let i = 0; i < 40; i++) ka.emit(roomEvents.typing, { roomId, typing: i % 2 === 0 });
    await new Promise((r) => setTimeout(r, 500));
    // "Typing" up to the allowance (burst 8); "stopped typing" always, so no indicator is left on.
    const on = seen.filter(Boolean).length;
    expect(on).toBeGreaterThanOrEqual(8);
    expect(on).toBeLessThanOrEqual(12);
    expect(seen.length - on).toBe(20);
    expect(seen.at(-1)).toBe(false);
    expect(ka.connected).toBe(true);
  });

  it('rate-limits messages per user across tabs', async () => {
    const me = person();
    const one = await clients.chatting(me);
    const two = await clients.chatting(me);
    const acks = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        i % 2 ? postTo(one.ka, one.roomId, `message ${i}`) : postTo(two.ka, two.roomId, `message ${i}`),
      ),
    );
    const limited = acks.filter((a) => !a.ok && a.code === 'rate_limited').length;
    expect(limited).toBeGreaterThanOrEqual(8);
    expect(acks.filter((a) => a.ok).length).toBeGreaterThanOrEqual(20);
  });
});

describe('skip, stop and leaving', () => {
  it('skip ends the room, requeues the sender, and requeues a partner with automatic reconnect', async () => {
    const { ka, kb, ra } = await pair(person(), person(), {}, { automaticReconnect: true });
    const left = next<{ roomId: string; reason: string }>(kb, chatEvents.partnerLeft);
    const bRequeued = next<{ requeued: boolean }>(kb, chatEvents.searching);
    const aRequeued = next<{ requeued: boolean; roomType: string }>(ka, chatEvents.searching);
    ka.emit(chatEvents.next);
    expect(await left).toEqual({ roomId: ra.roomId, reason: 'skip' });
    expect(await aRequeued).toEqual({ roomType: 'videoChat', requeued: true });
    expect(await bRequeued).toMatchObject({ requeued: true });
    // They were partners a moment ago: they do not meet again now, a third user meets one of them.
    const again = Promise.race([next<RoomSetup>(ka, chatEvents.matched), next<RoomSetup>(kb, chatEvents.matched)]);
    const c = person();
    const kc = await open(c);
    const mc = next<RoomSetup>(kc, chatEvents.matched);
    kc.emit(chatEvents.start, search({ roomType: 'videoChat' }));
    expect((await again).receiver.userId).toBe(c.userId);
    expect((await mc).roomType).toBe('videoChat');
  });

  it('meeting a recent partner again: both must ask (or have waited), the wish is one search’s, and a malformed one is refused', async () => {
    const { a, b, ka, kb } = await pair(person(), person(), { roomType: 'textChat' }, { roomType: 'textChat' });
    // a skips b; b asks to meet a again at once: a's own wait after the skip still holds.
    const aSearching = next(ka, chatEvents.searching);
    ka.emit(chatEvents.next);
    await aSearching;
    const bSearching = next(kb, chatEvents.searching);
    kb.emit(chatEvents.start, search({ meetAgain: [a.userId] }));
    await bSearching;
    expect(await silent(kb, chatEvents.matched, 1000)).toBe(true);
    // a asks too: they meet at once, well before the 10 s cooldown.
    const bMet = next<RoomSetup>(kb, chatEvents.matched);
    const aMet = next<RoomSetup>(ka, chatEvents.matched);
    ka.emit(chatEvents.start, search({ meetAgain: [b.userId] }));
    expect((await aMet).receiver.userId).toBe(b.userId);
    expect((await bMet).receiver.userId).toBe(a.userId);

    // b skips: b's next search did not ask for anything, so a's asking alone meets nobody.
    const bAgain = next(kb, chatEvents.searching);
    kb.emit(chatEvents.next);
    await bAgain;
    ka.emit(chatEvents.start, search({ meetAgain: [b.userId] }));
    expect(await silent(ka, chatEvents.matched, 1000)).toBe(true);

    for (const meetAgain of [['not-a-user'], [b.userId, randomUUID(), randomUUID(), randomUUID()], b.userId]) {
      const refused = next<{ event: string; code: string }>(ka, chatEvents.error);
      ka.emit(chatEvents.start, { ...search(), meetAgain });
      expect(await refused).toMatchObject({ event: chatEvents.start, code: 'validation_failed' });
    }
  });

  it('a partner without automatic reconnect is not requeued; stop tells the partner the stranger left', async () => {
    const { ka, kb, ra } = await pair();
    const notSearching = silent(kb, chatEvents.searching, 500);
    const left = next<{ reason: string; roomId: string }>(kb, chatEvents.partnerLeft);
    ka.emit(chatEvents.stop);
    expect(await left).toEqual({ roomId: ra.roomId, reason: 'left' });
    expect(await notSearching).toBe(true);
  });

  it('automatic reconnect switched on mid-chat (chat:settings) applies when the partner leaves', async () => {
    const { ka, kb } = await pair();
    kb.emit(chatEvents.settings, { automaticReconnect: true });
    const bad = next<{ event: string; code: string }>(kb, chatEvents.error);
    kb.emit(chatEvents.settings, { automaticReconnect: 'yes' });
    expect(await bad).toMatchObject({ event: chatEvents.settings, code: 'validation_failed' });
    const requeued = next<{ requeued: boolean }>(kb, chatEvents.searching);
    ka.emit(chatEvents.stop);
    expect(await requeued).toMatchObject({ requeued: true });
  });

  it('a skip over the search allowance still ends the chat, and says why no search started', async () => {
    const me = person();
    const { ka, kb, ra } = await pair(me, person());
    // Another tab of the same user spends the allowance (5 a second, burst 10, per user).
    const other = await open(me);
    const nobody = search({ filters: { topics: [], gender: 'female', ageRange: { minAge: 98, maxAge: 99 } } });
    const refusedThere = next<{ code: string }>(other, chatEvents.error);
    for (let i = 0; i < 12; i++) other.emit(chatEvents.start, nobody);
    expect(await refusedThere).toMatchObject({ code: 'rate_limited' });
    const left = next<{ roomId: string; reason: string }>(kb, chatEvents.partnerLeft);
    const refused = next<{ event: string; code: string }>(ka, chatEvents.error);
    ka.emit(chatEvents.next);
    expect(await refused).toMatchObject({ event: chatEvents.next, code: 'rate_limited' });
    expect(await left).toEqual({ roomId: ra.roomId, reason: 'left' });
    expect(await silent(ka, chatEvents.searching)).toBe(true);
  });

  it("echoes the client's search id in what answers that search, requeues and refusals included", async () => {
    const { ka, kb, ra, rb } = await pair(person(), person(), { searchId: 'a-1' }, { searchId: 'b-1', automaticReconnect: true });
    expect([ra.searchId, rb.searchId]).toEqual(['a-1', 'b-1']);
    // A skip names the new search; the partner's automatic requeue answers the search it had.
    const aSearching = next<{ searchId?: string }>(ka, chatEvents.searching);
    const bSearching = next<{ searchId?: string }>(kb, chatEvents.searching);
    ka.emit(chatEvents.next, { searchId: 'a-2' });
    expect((await aSearching).searchId).toBe('a-2');
    expect((await bSearching).searchId).toBe('b-1');
    // A malformed skip or start is refused with the id it carried, when there was one.
    const badNext = next<{ event: string; code: string; searchId?: string }>(ka, chatEvents.error);
    ka.emit(chatEvents.next, { searchId: 42 });
    expect(await badNext).toMatchObject({ event: chatEvents.next, code: 'validation_failed' });
    const badStart = next<{ event: string; code: string; searchId?: string }>(ka, chatEvents.error);
    ka.emit(chatEvents.start, { ...search(), filters: { gender: 'nobody' }, searchId: 'a-3' });
    expect(await badStart).toEqual(expect.objectContaining({ event: chatEvents.start, code: 'validation_failed', searchId: 'a-3' }));
  });

  it('closing the tab ends the room for the partner at once', async () => {
    const { ka, kb, ra } = await pair();
    const left = next<{ reason: string; roomId: string }>(kb, chatEvents.partnerLeft, () => true, 1000);
    ka.disconnect();
    expect(await left).toEqual({ roomId: ra.roomId, reason: 'disconnected' });
  });
});

describe('popular topics', () => {
  it('answers the most searched topics of the last hour to signed-in users', async () => {
    expect((await clients.server().api('/api/chat/topics/popular')).status).toBe(401);
    // Established people (verified, a month old, a few real chats); one repeating a topic counts once (per user, topic and hour).
    const member = async () => {
      const p = person();
      const createdAt = new Date(Date.now() - 30 * 86_400_000);
      await clients
        .server()
        .deps.db.insert(users)
        .values({ id: p.userId, username: p.username, isVerified: true, realChats: 3, createdAt });
      return p;
    };
    const spammer = await open(await member());
    for (let i = 0; i < 4; i++) {
      spammer.emit(chatEvents.start, search({ filters: { topics: ['zebras'], gender: 'male', ageRange: { minAge: 98, maxAge: 99 } } }));
      await next(spammer, chatEvents.searching);
    }
    for (const topics of [
      ['Board  Games', 'poetry'],
      ['board games', 'poetry'],
      ['board games', 'poetry', 'zebras'],
      ['board games', 'poetry', 'zebras'],
      ['board games', 'poetry', 'zebras'],
      ['poetry', 'zebras', 'kites'],
      ['kites'],
    ]) {
      const k = await open(await member());
      k.emit(chatEvents.start, search({ roomType: 'textChat', filters: { topics, gender: 'male', ageRange: { minAge: 98, maxAge: 99 } } }));
      await next(k, chatEvents.searching);
    }
    await new Promise((r) => setTimeout(r, 2300)); // searches are written in batches every 2 s
    const token = await clients.server().deps.tokens.sign(person());
    const res = await clients.server().api('/api/chat/topics/popular', { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { topics: string[] };
    // poetry 6, board games 5, zebras 5 (the spammer once): ties by name; kites, searched by two, is not popular yet.
    expect(body.topics).toEqual(['poetry', 'board games', 'zebras']);
  });
});
