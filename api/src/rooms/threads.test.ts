import { describe, expect, it } from 'vitest';
import {
  roomEvents as wire,
  type JoinAnswer,
  type MessagePage,
  type PostAnswer,
  type ReadReceipt,
  type RoomMessage,
  type ThreadAnswer,
  type ThreadNotice,
  type UnreadNotice,
} from '@parley/contract/rooms';
import type { OpenDirectAnswer } from '@parley/contract/direct';
import type { NotificationPage } from '@parley/contract/notifications';
import type { SearchPage } from '@parley/contract/search';
import type { Socket } from 'socket.io-client';
import { next, silent, socketTestServer } from '../testing/socketClients.ts';
import { storedRoomRig } from '../testing/storedRoomRig.ts';
import { ROOM_OPENS_BURST, ROOM_OPENS_PER_S } from './storedArea.ts';

const t = socketTestServer();
const rig = storedRoomRig(t.server, (u) => t.open(u));

const open = (s: Socket, roomId: string, rootId: number, after?: number) =>
  s.timeout(5000).emitWithAck(wire.thread, after === undefined ? { roomId, rootId } : { roomId, rootId, after }) as Promise<ThreadAnswer>;
const reply = (s: Socket, roomId: string, rootId: number, text: string) => rig.post(s, roomId, text, { threadId: rootId });
const idOf = (a: PostAnswer) => {
  if (!a.ok) throw new Error(`refused: ${a.code}`);
  return a.message.id;
};
const threadNotes = async (who: { token: string }) =>
  ((await (await rig.call(who, '/api/notifications')).json()) as NotificationPage).notificationList.filter((n) => n.kind === 'threadReply');

describe('threads in group rooms', () => {
  it('keeps replies apart from the room, counts them on the root, and opens, pages and searches them', async () => {
    const { people, room, sockets } = await rig.gathering();
    const [own, bo] = people;
    const [so, sb] = sockets;
    const rootId = idOf(await rig.post(so, room.roomId, 'what should we play tonight?'));

    const rootChanged = next<RoomMessage>(so, wire.changed, (m) => m.id === rootId);
    const live = next<RoomMessage>(so, wire.message, (m) => m.threadId === rootId);
    const r1 = await reply(sb, room.roomId, rootId, 'how about marimba jazz');
    expect(r1.ok && r1.message).toMatchObject({ threadId: rootId, text: 'how about marimba jazz' });
    expect((await live).text).toBe('how about marimba jazz');
    expect((await rootChanged).thread).toEqual({ replies: 1, lastReplyAt: r1.ok ? r1.message.sentAt : 0 });
    const after = idOf(await rig.post(so, room.roomId, 'back in the room'));

    // The room shows its own messages only; the root carries the thread's summary.
    const page = (await (await rig.call(bo, `/api/rooms/${room.roomId}/messages`)).json()) as MessagePage;
    expect(page.messages.map((m) => m.text)).toEqual(['what should we play tonight?', 'back in the room']);
    expect(page.messages[0]!.thread?.replies).toBe(1);
    const joined = (await rig.watch(await rig.open(bo), room.roomId)) as Extract<JoinAnswer, { ok: true }>;
    expect(joined.messages.map((m) => m.id)).toEqual([rootId, after]);

    const thread = await open(sb, room.roomId, rootId);
    expect(thread).toMatchObject({ ok: true, root: { id: rootId }, hasOlder: false, following: true });
    expect(thread.ok && thread.messages.map((m) => m.text)).toEqual(['how about marimba jazz']);
    const threadPage = (await (await rig.call(bo, `/api/rooms/${room.roomId}/messages?thread=${rootId}`)).json()) as MessagePage;
    expect(threadPage.messages.map((m) => m.id)).toEqual([idOf(r1)]);

    // A thread's reply is edited and deleted like any message; the root's count follows.
    const edited = next<RoomMessage>(so, wire.changed, (m) => m.id === idOf(r1));
    expect(await sb.timeout(5000).emitWithAck(wire.edit, { roomId: room.roomId, id: idOf(r1), text: 'marimba jazz, surely' })).toEqual({
      ok: true,
    });
    expect(await edited).toMatchObject({ threadId: rootId, text: 'marimba jazz, surely', editedAt: expect.any(Number) });
    const found = (await (await rig.call(own, '/api/rooms/search?q=marimba')).json()) as SearchPage;
    expect(found.hits.map((h) => [h.messageId, h.threadId])).toEqual([[idOf(r1), rootId]]);
    const recount = next<RoomMessage>(so, wire.changed, (m) => m.id === rootId);
    expect(await sb.timeout(5000).emitWithAck(wire.delete, { roomId: room.roomId, id: idOf(r1) })).toEqual({ ok: true });
    expect((await recount).thread).toBeUndefined();
  });

  it('tells its followers of a reply (the root’s author and whoever posted), notifies them, counts their unread, and follows and unfollows', async () => {
    const { people, room, sockets } = await rig.gathering();
    const [own, bo, cy] = people;
    const [so, sb, sc] = sockets;
    const rootActivity = next<UnreadNotice>(sc, wire.activity);
    const rootId = idOf(await rig.post(so, room.roomId, 'thread me'));
    expect((await rootActivity).lastMessageId).toBe(rootId);

    // The room's own activity is not told for a thread's reply; its followers are.
    const toOwner = next<ThreadNotice>(so, wire.threadActivity);
    const noActivity = silent(sc, wire.activity, 1500);
    const cyNotTold = silent(sc, wire.threadActivity, 1500);
    const first = idOf(await reply(sb, room.roomId, rootId, 'first answer'));
    expect(await toOwner).toEqual({ roomId: room.roomId, rootId, messageId: first, senderId: bo.userId });
    expect(await cyNotTold).toBe(true);
    expect(await noActivity).toBe(true);
    await expect
      .poll(async () => (await threadNotes(own)).map((n) => [n.link, n.text]))
      .toEqual([[`/groupchat/${room.roomId}?thread=${rootId}`, `${bo.username} replied in a thread in ${room.name}: first answer`]]);
    expect(await threadNotes(bo)).toEqual([]);
    // Unread per thread: the owner has not read Bo's reply.
    const ownJoin = (await rig.watch(await rig.open(own), room.roomId)) as Extract<JoinAnswer, { ok: true }>;
    expect(ownJoin.threadUnread).toEqual({ [rootId]: 1 });

    // Cy follows without posting; Ana's second reply reaches Bo (who posted) and Cy, not herself.
    expect(await sc.timeout(5000).emitWithAck(wire.follow, { roomId: room.roomId, rootId, on: true })).toEqual({ ok: true });
    const toBo = next<ThreadNotice>(sb, wire.threadActivity);
    const toCy = next<ThreadNotice>(sc, wire.threadActivity);
    const notToOwner = silent(so, wire.threadActivity, 1500);
    const second = idOf(await reply(so, room.roomId, rootId, 'second answer'));
    expect((await toBo).messageId).toBe(second);
    expect((await toCy).messageId).toBe(second);
    expect(await notToOwner).toBe(true);
    await expect.poll(async () => (await threadNotes(cy)).length).toBe(1);

    // Replying read the thread for the owner; Cy, following, has two unread; reading clears it.
    const ownAgain = (await rig.watch(await rig.open(own), room.roomId)) as Extract<JoinAnswer, { ok: true }>;
    expect(ownAgain.threadUnread).toEqual({});
    const cyJoin = (await rig.watch(await rig.open(cy), room.roomId)) as Extract<JoinAnswer, { ok: true }>;
    expect(cyJoin.threadUnread).toEqual({ [rootId]: 2 });
    expect(await sc.timeout(5000).emitWithAck(wire.threadRead, { roomId: room.roomId, rootId, lastReadId: second })).toEqual({ ok: true });
    const again = (await rig.watch(await rig.open(cy), room.roomId)) as Extract<JoinAnswer, { ok: true }>;
    expect(again.threadUnread).toEqual({});

    // Unfollowed, Cy hears no more of it.
    expect(await sc.timeout(5000).emitWithAck(wire.follow, { roomId: room.roomId, rootId, on: false })).toEqual({ ok: true });
    expect((await open(sc, room.roomId, rootId)).ok && (await open(sc, room.roomId, rootId))).toMatchObject({ following: false });
    const cyQuiet = silent(sc, wire.threadActivity, 1500);
    await reply(sb, room.roomId, rootId, 'third answer');
    expect(await cyQuiet).toBe(true);
  });

  it('catches a thread up by its last id after a drop, and the room its roots’ new counts', async () => {
    const { people, room, sockets } = await rig.gathering();
    const [so, sb] = sockets;
    const rootId = idOf(await rig.post(so, room.roomId, 'root'));
    const seen = idOf(await reply(sb, room.roomId, rootId, 'before the drop'));
    const lastInRoom = idOf(await rig.post(so, room.roomId, 'the room goes on'));
    sb.disconnect();
    const missed = [
      idOf(await reply(so, room.roomId, rootId, 'during the drop 1')),
      idOf(await reply(so, room.roomId, rootId, 'during the drop 2')),
    ];

    // Bo's page comes back on a new connection with the last ids it saw, the room's and the thread's.
    const sb2 = await rig.open(people[1]);
    const room2 = (await rig.watch(sb2, room.roomId, lastInRoom)) as Extract<JoinAnswer, { ok: true }>;
    expect(room2.messages).toEqual([]);
    expect(room2.threads?.map((m) => [m.id, m.thread?.replies])).toEqual([[rootId, 3]]);
    const caught = await open(sb2, room.roomId, rootId, seen);
    expect(caught.ok && caught.messages.map((m) => m.id)).toEqual(missed);
    expect(caught).toMatchObject({ hasOlder: true, hasNewer: false });
    // And follows it live again.
    const live = next<RoomMessage>(sb2, wire.message, (m) => m.threadId === rootId);
    await reply(so, room.roomId, rootId, 'after the drop');
    expect((await live).text).toBe('after the drop');
  });

  it('the room’s read position passes over the threads’ replies that follow it, so they leave no unread count', async () => {
    const { people, room, sockets } = await rig.gathering();
    const [so, sb] = sockets;
    const rootId = idOf(await rig.post(so, room.roomId, 'root'));
    await reply(so, room.roomId, rootId, 'r1');
    const last = idOf(await reply(so, room.roomId, rootId, 'r2'));
    expect(await sb.timeout(5000).emitWithAck(wire.read, { roomId: room.roomId, lastReadId: rootId })).toEqual({ ok: true });
    const groups = (await (await rig.call(people[1], `/api/groups/${room.roomId}`)).json()) as { unread: number; lastMessageId: number };
    expect(groups).toMatchObject({ unread: 0, lastMessageId: last });
  });
});

describe('threads: who may read and post them', () => {
  it('refuses outsiders, those who left or were banned, another room’s messages, replies of replies and other kinds', async () => {
    const { people, room, sockets } = await rig.gathering();
    const [own, bo, cy] = people;
    const [so, sb, sc] = sockets;
    const rootId = idOf(await rig.post(so, room.roomId, 'members only root'));
    const replyId = idOf(await reply(sb, room.roomId, rootId, 'a reply'));
    const eve = await rig.account('eve');
    const se = await rig.open(eve);
    const everyThreadEvent = (s: Socket, roomId: string, id: number) =>
      Promise.all([
        open(s, roomId, id),
        reply(s, roomId, id, 'let me in'),
        s.timeout(5000).emitWithAck(wire.follow, { roomId, rootId: id, on: true }),
        s.timeout(5000).emitWithAck(wire.threadRead, { roomId, rootId: id, lastReadId: 99 }),
      ]);

    // Someone who is not a member: every event and the history page.
    for (const a of await everyThreadEvent(se, room.roomId, rootId)) expect(a).toMatchObject({ ok: false, code: 'not_member' });
    expect((await rig.call(eve, `/api/rooms/${room.roomId}/messages?thread=${rootId}`)).status).toBe(403);

    // A member of another room asking for this room's thread through their own room's id reaches their own room only.
    const other = await rig.createRoom(eve);
    const se2 = await rig.open(eve);
    await rig.watch(se2, other.roomId);
    expect(await open(se2, other.roomId, rootId)).toMatchObject({ ok: false, code: 'unknown_message' });
    expect(await reply(se2, other.roomId, rootId, 'cross')).toMatchObject({ ok: false, code: 'unknown_message' });

    // A reply has no thread of its own; a deleted root takes no new replies.
    expect(await reply(sb, room.roomId, replyId, 'nested')).toMatchObject({ ok: false, code: 'thread_reply' });
    expect(await open(sb, room.roomId, replyId)).toMatchObject({ ok: false, code: 'unknown_message' });

    // Cy leaves; Bo is banned: neither reads nor posts in the thread any more.
    expect((await rig.call(cy, `/api/groups/${room.roomId}/leave`, { method: 'POST' })).status).toBe(204);
    for (const a of await everyThreadEvent(sc, room.roomId, rootId)) expect(a).toMatchObject({ ok: false, code: 'not_member' });
    expect((await rig.moderate(own, room.roomId, { action: 'ban', userId: bo.userId })).status).toBe(200);
    for (const a of await everyThreadEvent(await rig.open(bo), room.roomId, rootId)) expect(a).toMatchObject({ ok: false, code: 'banned' });
    expect((await rig.call(bo, `/api/rooms/${room.roomId}/messages?thread=${rootId}`)).status).toBe(403);

    // A direct conversation has no threads.
    const friend = await rig.account('fr');
    await rig.befriend(own, friend);
    const direct = (await (await rig.call(own, `/api/direct/${friend.username}`, { method: 'POST' })).json()) as OpenDirectAnswer;
    const sd = await rig.open(own);
    await rig.watch(sd, direct.roomId);
    const dm = idOf(await rig.post(sd, direct.roomId, 'hello'));
    expect(await reply(sd, direct.roomId, dm, 'threaded?')).toMatchObject({ ok: false, code: 'not_allowed' });
    expect(await open(sd, direct.roomId, dm)).toMatchObject({ ok: false, code: 'not_allowed' });
    expect((await rig.call(own, `/api/rooms/${direct.roomId}/messages?thread=${dm}`)).status).toBe(403);

    // Bad payloads are refused, never a crash.
    expect(await so.timeout(5000).emitWithAck(wire.thread, { roomId: room.roomId, rootId: -1 })).toMatchObject({
      ok: false,
      code: 'validation_failed',
    });
    expect(await so.timeout(5000).emitWithAck(wire.follow, { roomId: room.roomId, rootId, on: 'yes' })).toMatchObject({
      ok: false,
      code: 'validation_failed',
    });
    expect((await rig.call(own, `/api/rooms/${room.roomId}/messages?thread=abc`)).status).toBe(400);
  });

  it('holds a flood of thread opens and follows to allowances of their own, over every socket of the person', async () => {
    const { people, room, sockets } = await rig.gathering();
    const [so, sb] = sockets;
    const other = await rig.open(people[1]!);
    const rootId = idOf(await rig.post(so, room.roomId, 'flood me'));
    const within = (passed: number, startedAt: number, perS: number, burst: number) =>
      expect(passed).toBeLessThanOrEqual(burst + Math.ceil(((performance.now() - startedAt) / 1000) * perS) + 1);

    let startedAt = performance.now();
    const opens = await Promise.all(Array.from({ length: 80 }, (_, i) => open(i % 2 ? sb : other, room.roomId, rootId)));
    const refusedOpens = opens.filter((a) => !a.ok);
    expect(refusedOpens.length).toBeGreaterThan(0);
    for (const a of refusedOpens)
      expect(a).toMatchObject({ ok: false, code: 'rate_limited', message: 'Too many requests. Wait a moment and try again.' });
    within(80 - refusedOpens.length, startedAt, ROOM_OPENS_PER_S, ROOM_OPENS_BURST);

    startedAt = performance.now();
    const follows = (await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        (i % 2 ? sb : other).timeout(5000).emitWithAck(wire.follow, { roomId: room.roomId, rootId, on: i % 4 < 2 }),
      ),
    )) as { ok: boolean; code?: string }[];
    const refusedFollows = follows.filter((a) => !a.ok);
    expect(refusedFollows.length).toBeGreaterThan(0);
    for (const a of refusedFollows) expect(a.code).toBe('rate_limited');
    within(30 - refusedFollows.length, startedAt, 4, 8);
  });

  it('a thread keeps the room’s mute, slow mode and blocks', async () => {
    const { people, room, sockets } = await rig.gathering();
    const [own, bo, cy] = people;
    const [so, sb, sc] = sockets;
    const rootId = idOf(await rig.post(so, room.roomId, 'root'));

    expect((await rig.moderate(own, room.roomId, { action: 'mute', userId: bo.userId, minutes: 5 })).status).toBe(200);
    expect(await reply(sb, room.roomId, rootId, 'muted?')).toMatchObject({ ok: false, code: 'muted' });

    expect((await rig.moderate(own, room.roomId, { action: 'slowMode', seconds: 60 })).status).toBe(200);
    // Cy's first reply reaches the root's author: the block below is what silences the next one.
    const toldOnce = next<ThreadNotice>(so, wire.threadActivity, (n) => n.senderId === cy.userId);
    const once = await reply(sc, room.roomId, rootId, 'once');
    expect(once.ok).toBe(true);
    expect(await toldOnce).toMatchObject({ rootId, messageId: idOf(once) });
    expect(await reply(sc, room.roomId, rootId, 'twice')).toMatchObject({ ok: false, code: 'slow_mode' });
    expect(await rig.post(sc, room.roomId, 'and in the room')).toMatchObject({ ok: false, code: 'slow_mode' });
    expect((await rig.moderate(own, room.roomId, { action: 'slowMode', seconds: 0 })).status).toBe(200);

    // The root's author blocked Cy: Cy's replies neither reach nor notify them.
    expect((await rig.call(own, '/api/settings/blocks', { method: 'POST', json: { username: cy.username } })).status).toBe(204);
    const hidden = silent(so, wire.message, 1500);
    const untold = silent(so, wire.threadActivity, 1500);
    await new Promise((r) => setTimeout(r, 1100));
    expect((await reply(sc, room.roomId, rootId, 'from a blocked one')).ok).toBe(true);
    expect(await hidden).toBe(true);
    expect(await untold).toBe(true);
    expect((await threadNotes(own)).map((n) => n.text)).not.toContainEqual(expect.stringContaining('from a blocked one'));
  });
});

describe('hiding read receipts', () => {
  it('hides a person’s reads from others and theirs from them, in direct rooms, live and on joining', async () => {
    const [ana, bo] = await Promise.all([rig.account('ana'), rig.account('bo')]);
    await rig.befriend(ana, bo);
    const { roomId } = (await (await rig.call(ana, `/api/direct/${bo.username}`, { method: 'POST' })).json()) as OpenDirectAnswer;
    const [sa, sb] = await Promise.all([rig.open(ana), rig.open(bo)]);
    await rig.watch(sa, roomId);
    await rig.watch(sb, roomId);
    const first = idOf(await rig.post(sa, roomId, 'one'));
    const second = idOf(await rig.post(sb, roomId, 'two'));

    // Shown by default (Bo's position is past what Bo sent).
    const shown = next<ReadReceipt>(sa, wire.read, (r) => r.userId === bo.userId);
    await sa.timeout(5000).emitWithAck(wire.read, { roomId, lastReadId: second });
    const third0 = idOf(await rig.post(sa, roomId, 'zero'));
    await sb.timeout(5000).emitWithAck(wire.read, { roomId, lastReadId: third0 });
    expect(await shown).toEqual({ roomId, userId: bo.userId, lastReadId: third0 });
    expect(first).toBeLessThan(second);

    const hide = await rig.call(bo, '/api/settings', {
      method: 'PATCH',
      json: { privacy: { profileVisibleTo: 'everyone', friendRequestsFrom: 'everyone', hideReadReceipts: true } },
    });
    expect(hide.status).toBe(200);
    expect(((await hide.json()) as { privacy: { hideReadReceipts: boolean } }).privacy.hideReadReceipts).toBe(true);

    // Bo's reads no longer reach Ana; Ana's no longer reach Bo; neither join shows the other's.
    const third = idOf(await rig.post(sa, roomId, 'three'));
    const anaHearsNothing = silent(sa, wire.read, 1000);
    await sb.timeout(5000).emitWithAck(wire.read, { roomId, lastReadId: third });
    expect(await anaHearsNothing).toBe(true);
    const boHearsNothing = silent(sb, wire.read, 1000);
    await sa.timeout(5000).emitWithAck(wire.read, { roomId, lastReadId: second });
    expect(await boHearsNothing).toBe(true);
    expect(await rig.watch(await rig.open(ana), roomId)).toMatchObject({ ok: true, readBy: { [ana.userId]: expect.any(Number) } });
    expect(((await rig.watch(await rig.open(ana), roomId)) as Extract<JoinAnswer, { ok: true }>).readBy[bo.userId]).toBeUndefined();
    expect(((await rig.watch(await rig.open(bo), roomId)) as Extract<JoinAnswer, { ok: true }>).readBy).toEqual({});
    // Bo's own unread count still follows what Bo read.
    const list = (await (await rig.call(bo, '/api/direct')).json()) as { unreadTotal: number };
    expect(list.unreadTotal).toBe(0);

    // Shown again once Bo turns it back.
    await rig.call(bo, '/api/settings', {
      method: 'PATCH',
      json: { privacy: { profileVisibleTo: 'everyone', friendRequestsFrom: 'everyone', hideReadReceipts: false } },
    });
    const again = next<ReadReceipt>(sa, wire.read);
    const fourth = idOf(await rig.post(sa, roomId, 'four'));
    await sb.timeout(5000).emitWithAck(wire.read, { roomId, lastReadId: fourth });
    expect((await again).lastReadId).toBe(fourth);
  });
});
