import { describe, expect, it } from 'vitest';
import {
  roomEvents as wire,
  type MessagePage,
  type RemovedFromRoom,
  type RoomTyping,
  type RoomMessage,
  type UnreadNotice,
} from '@parley/contract/rooms';
import { GROUP_ROOMS_PER_OWNER, type GroupDetail, type GroupSummary } from '@parley/contract/groups';
import { MESSAGE_MAX_BYTES } from '@parley/contract/constants';
import { next, silent, socketTestServer } from '../testing/socketClients.ts';
import { storedRoomRig } from '../testing/storedRoomRig.ts';
import type { NotificationPage } from '@parley/contract/notifications';
import type { StoredRoomEvents } from '../deps.ts';

const t = socketTestServer();
const rig = storedRoomRig(t.server, (u) => t.open(u));

describe('group rooms: finding, creating, joining, leaving', () => {
  it('lists the official rooms seeded by the migration, by category and by search', async () => {
    const ana = await rig.account();
    const all = (await (await rig.call(ana, '/api/groups')).json()) as { rooms: GroupSummary[] };
    expect(all.rooms.filter((r) => r.official).map((r) => r.category)).toEqual(
      expect.arrayContaining(['Music', 'Gaming', 'Movies', 'Sports', 'Tech', 'Languages', 'Just chatting']),
    );
    const music = (await (await rig.call(ana, '/api/groups?category=Music')).json()) as { rooms: GroupSummary[] };
    expect(music.rooms.every((r) => r.category === 'Music')).toBe(true);
    const found = (await (await rig.call(ana, '/api/groups?q=lounge')).json()) as { rooms: GroupSummary[] };
    expect(found.rooms.map((r) => r.name)).toContain('Music Lounge');
    expect((await rig.call(ana, '/api/groups?category=Nope')).status).toBe(400);
  });

  it('creates a room with its owner, refuses bad input with 400 and a sixth open room with 409', async () => {
    const ana = await rig.account();
    const bad = await rig.call(ana, '/api/groups', { method: 'POST', json: { name: 'x', category: 'Music' } });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ code: 'validation_failed', message: 'Name must be at least 3 characters' });
    // A form's field refused in the language the page shows (Accept-Language), as sign-up's are.
    const inSpanish = await t.server().api('/api/groups', {
      method: 'POST',
      json: { name: 'x', category: 'Music' },
      headers: { authorization: `Bearer ${ana.token}`, 'accept-language': 'es' },
    });
    expect(await inSpanish.json()).toMatchObject({ code: 'validation_failed', message: 'El nombre debe tener al menos 3 caracteres' });
    const room = await rig.createRoom(ana, { name: 'Jazz cats', description: 'Bebop and more' });
    expect(room).toMatchObject({ name: 'Jazz cats', role: 'owner', roomOwner: ana.username, members: 1 });
    for (let i = 1; i < GROUP_ROOMS_PER_OWNER; i++) await rig.createRoom(ana);
    const sixth = await rig.call(ana, '/api/groups', { method: 'POST', json: { name: 'One too many', category: 'Tech' } });
    expect(sixth.status).toBe(409);
    expect(await sixth.json()).toMatchObject({ code: 'too_many_rooms' });
  });

  it('gives premium members more and larger rooms (the tier of their access token), and only them', async () => {
    const free = await rig.account();
    const big = await rig.call(free, '/api/groups', { method: 'POST', json: { name: 'Huge hall', category: 'Music', capacity: 600 } });
    expect(big.status).toBe(403);
    expect(await big.json()).toMatchObject({ code: 'capacity_over_perk' });
    const plain = await rig.account();
    const pro = { ...plain, token: await t.server().deps.tokens.sign({ ...plain, premiumUser: 'pro' }) };
    expect(
      (await rig.call(pro, '/api/groups', { method: 'POST', json: { name: 'Huge hall', category: 'Music', capacity: 600 } })).status,
    ).toBe(201);
    for (let i = 1; i < GROUP_ROOMS_PER_OWNER + 1; i++) await rig.createRoom(pro);
    // Past the free tier's rooms, still within Pro's.
    expect((await rig.call(pro, '/api/groups', { method: 'POST', json: { name: 'Seventh', category: 'Tech' } })).status).toBe(201);
  });

  it('an invite-only room needs its invite; a rotated invite stops working; unknown rooms answer 404', async () => {
    const [ana, bo, cy] = await Promise.all([rig.account(), rig.account(), rig.account()]);
    const room = await rig.createRoom(ana, { visibility: 'invite' });
    expect(room.invite).toBeTruthy();
    expect((await rig.call(bo, `/api/groups/${room.roomId}`)).status).toBe(403);
    expect((await rig.join(bo, room.roomId)).status).toBe(403);
    expect((await rig.join(bo, room.roomId, room.invite!)).status).toBe(200);
    // Bo, a plain member, is not shown the invite.
    expect(((await (await rig.call(bo, `/api/groups/${room.roomId}`)).json()) as GroupDetail).invite).toBeNull();
    const rotated = (await (await rig.moderate(ana, room.roomId, { action: 'rotateInvite' })).json()) as { invite: string };
    expect(rotated.invite).not.toBe(room.invite);
    expect((await rig.join(cy, room.roomId, room.invite!)).status).toBe(403);
    expect((await rig.join(cy, room.roomId, rotated.invite)).status).toBe(200);
    expect((await rig.call(ana, '/api/groups/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await rig.call(ana, '/api/groups/not-a-room')).status).toBe(400);
  });

  it('a full room refuses one more; leaving takes a member out of the live room', async () => {
    const [ana, bo, cy] = await Promise.all([rig.account(), rig.account(), rig.account()]);
    const room = await rig.createRoom(ana, { capacity: 2 });
    expect((await rig.join(bo, room.roomId)).status).toBe(200);
    const full = await rig.join(cy, room.roomId);
    expect(full.status).toBe(409);
    expect(await full.json()).toMatchObject({ code: 'full' });
    const sb = await rig.open(bo);
    expect((await rig.watch(sb, room.roomId)).ok).toBe(true);
    const removed = next<RemovedFromRoom>(sb, wire.removed);
    expect((await rig.call(bo, `/api/groups/${room.roomId}/leave`, { method: 'POST' })).status).toBe(204);
    expect((await removed).reason).toBe('left');
    expect((await rig.post(sb, room.roomId, 'still here?')).ok).toBe(false);
    // The owner hands the room over before leaving.
    expect((await rig.call(ana, `/api/groups/${room.roomId}/leave`, { method: 'POST' })).status).toBe(409);
  });
});

describe('group rooms: membership on every event', () => {
  it('a non-member cannot watch, read history, post, edit, delete, react, mark read or type', async () => {
    const [ana, eve] = await Promise.all([rig.account(), rig.account()]);
    const room = await rig.createRoom(ana);
    const [sa, se] = await Promise.all([rig.open(ana), rig.open(eve)]);
    await rig.watch(sa, room.roomId);
    const posted = await rig.post(sa, room.roomId, 'members only');
    expect(posted.ok).toBe(true);
    const id = posted.ok ? posted.message.id : 0;

    expect(await rig.watch(se, room.roomId)).toMatchObject({ ok: false, code: 'not_member' });
    expect((await rig.call(eve, `/api/rooms/${room.roomId}/messages`)).status).toBe(403);
    expect(await rig.post(se, room.roomId, 'let me in')).toMatchObject({ ok: false, code: 'not_member' });
    for (const [event, payload] of [
      [wire.edit, { roomId: room.roomId, id, text: 'mine now' }],
      [wire.delete, { roomId: room.roomId, id }],
      [wire.react, { roomId: room.roomId, id, emoji: '👍', on: true }],
      [wire.read, { roomId: room.roomId, lastReadId: id }],
    ] as const)
      expect(await se.timeout(5000).emitWithAck(event, payload)).toMatchObject({ ok: false, code: 'not_member' });
    const typingSeen = silent(sa, wire.typing);
    se.emit(wire.typing, { roomId: room.roomId, typing: true });
    expect(await typingSeen).toBe(true);
    // Invalid payloads are refused, never a crash.
    expect(await sa.timeout(5000).emitWithAck(wire.post, { roomId: room.roomId, clientId: 'x', text: '' })).toMatchObject({
      ok: false,
      code: 'validation_failed',
    });
    expect(await sa.timeout(5000).emitWithAck(wire.join, { roomId: 'nope' })).toMatchObject({ ok: false, code: 'validation_failed' });
  });

  it('messages are at most 65,536 bytes, and each person has a message allowance per room', async () => {
    const {
      people: [, bo],
      room,
      sockets: [sa, sb],
    } = await rig.gathering();
    // Multi-byte text is measured in UTF-8 bytes, as in 1:1 chat.
    const full = 'é'.repeat(MESSAGE_MAX_BYTES / 2);
    expect(await rig.post(sa, room.roomId, full)).toMatchObject({ ok: true, message: { text: full } });
    expect(await rig.post(sa, room.roomId, `${full}x`)).toMatchObject({ ok: false, code: 'validation_failed' });
    const burst = [];
    // Five at once, then one a second (the stored rooms' allowance).
    for (let i = 0; i < 5; i++) burst.push(await rig.post(sb, room.roomId, `quick ${i}`));
    expect(burst.every((a) => a.ok)).toBe(true);
    expect(await rig.post(sb, room.roomId, 'one too fast')).toMatchObject({ ok: false, code: 'rate_limited' });
    // The allowance is one person's in one room: Ana still talks here, Bo in another room.
    expect((await rig.post(sa, room.roomId, 'my turn')).ok).toBe(true);
    const other = await rig.createRoom(bo);
    await rig.watch(sb, other.roomId);
    expect((await rig.post(sb, other.roomId, 'elsewhere')).ok).toBe(true);
  });

  it('messages reach every member following the room in id order, typing reaches the others', async () => {
    const {
      people: [, bo],
      room,
      sockets: [sa, sb, sc],
    } = await rig.gathering();
    const got: number[] = [];
    sc.on(wire.message, (m: RoomMessage) => got.push(m.id));
    const typing = next<RoomTyping>(sc, wire.typing);
    sb.emit(wire.typing, { roomId: room.roomId, typing: true });
    expect(await typing).toMatchObject({ userId: bo.userId, username: bo.username, typing: true });
    const answers = await Promise.all([
      rig.post(sa, room.roomId, 'one'),
      rig.post(sb, room.roomId, 'two'),
      rig.post(sa, room.roomId, 'three'),
    ]);
    const ids = answers.map((a) => (a.ok ? a.message.id : -1)).sort((x, y) => x - y);
    await expect.poll(() => got.length).toBe(3);
    expect(got).toEqual(ids);
    expect(ids[2]! - ids[0]!).toBe(2);
  });

  it('a message sent again under the same client id (its answer lost) is stored and delivered once', async () => {
    const {
      people: [ana],
      room,
      sockets: [sa, , sc],
    } = await rig.gathering();
    const got: string[] = [];
    sc.on(wire.message, (m: RoomMessage) => got.push(m.text));
    const first = await rig.post(sa, room.roomId, 'only once', { clientId: 'resent-1' });
    const again = await rig.post(sa, room.roomId, 'only once', { clientId: 'resent-1' });
    expect(first.ok && again.ok).toBe(true);
    expect(again.ok && again.message.id).toBe(first.ok ? first.message.id : -1);
    await rig.post(sa, room.roomId, 'after it');
    await expect.poll(() => got).toEqual(['only once', 'after it']);
    const page = (await (await rig.call(ana, `/api/rooms/${room.roomId}/messages`)).json()) as MessagePage;
    expect(page.messages.filter((m) => m.text === 'only once')).toHaveLength(1);
  });
});

describe('group rooms: history', () => {
  it('pages back with before (at most 100), forward with after, and catches up after a drop: nothing missed, nothing doubled', async () => {
    const [ana, bo] = await Promise.all([rig.account(), rig.account()]);
    const room = await rig.createRoom(ana);
    await rig.join(bo, room.roomId);
    const sa = await rig.open(ana);
    await rig.watch(sa, room.roomId);
    await rig.seed(
      room.roomId,
      ana.userId,
      Array.from({ length: 130 }, (_, i) => `m${i + 1}`),
    );
    const latest = (await (await rig.call(bo, `/api/rooms/${room.roomId}/messages?limit=50`)).json()) as MessagePage;
    expect(latest.messages.map((m) => m.text)).toEqual(Array.from({ length: 50 }, (_, i) => `m${81 + i}`));
    expect(latest.hasMore).toBe(true);
    const older = (await (
      await rig.call(bo, `/api/rooms/${room.roomId}/messages?before=${latest.messages[0]!.id}&limit=100`)
    ).json()) as MessagePage;
    expect(older.messages).toHaveLength(80);
    expect(older.hasMore).toBe(false);
    expect((await rig.call(bo, `/api/rooms/${room.roomId}/messages?limit=101`)).status).toBe(400);
    expect((await rig.call(bo, `/api/rooms/${room.roomId}/messages?before=5&after=2`)).status).toBe(400);

    // Bo saw up to m100, dropped, and comes back after 30 more.
    const sb = await rig.open(bo);
    const first = await rig.watch(sb, room.roomId, 100);
    expect(first.ok && first.messages.map((m) => m.text)).toEqual(Array.from({ length: 30 }, (_, i) => `m${101 + i}`));
    sb.disconnect();
    await rig.seed(room.roomId, ana.userId, ['m131', 'm132', 'm133', 'm134', 'm135']);
    const back = await rig.open(bo);
    const live: string[] = [];
    back.on(wire.message, (m: RoomMessage) => live.push(m.text));
    const caught = await rig.watch(back, room.roomId, 130);
    await rig.post(sa, room.roomId, 'm136');
    await expect.poll(() => live).toEqual(['m136']);
    const seen = [...(caught.ok ? caught.messages.map((m) => m.text) : []), ...live];
    expect(seen).toEqual(['m131', 'm132', 'm133', 'm134', 'm135', 'm136']);
  });

  it('opens at the first unread: the join says how far the member had read', async () => {
    const [ana, bo] = await Promise.all([rig.account(), rig.account()]);
    const room = await rig.createRoom(ana);
    const sa = await rig.open(ana);
    await rig.watch(sa, room.roomId);
    await rig.post(sa, room.roomId, 'before Bo came');
    await rig.join(bo, room.roomId);
    const r1 = await rig.post(sa, room.roomId, 'first for Bo');
    await rig.post(sa, room.roomId, 'second for Bo');
    const sb = await rig.open(bo);
    const answer = await rig.watch(sb, room.roomId);
    expect(answer.ok && answer.lastReadId).toBe(r1.ok ? r1.message.id - 1 : -1);
    expect(answer.ok && answer.messages.map((m) => m.text)).toEqual(['before Bo came', 'first for Bo', 'second for Bo']);
    expect(await sb.timeout(5000).emitWithAck(wire.read, { roomId: room.roomId, lastReadId: 999 })).toEqual({ ok: true });
    const list = (await (await rig.call(bo, '/api/groups')).json()) as { rooms: GroupSummary[] };
    expect(list.rooms.find((r) => r.roomId === room.roomId)?.unread).toBe(0);
  });

  it('a member back after more unread than a page opens at the first unread, with the rest to page forward', async () => {
    const [ana, bo] = await Promise.all([rig.account(), rig.account()]);
    const room = await rig.createRoom(ana);
    await rig.seed(
      room.roomId,
      ana.userId,
      Array.from({ length: 40 }, (_, i) => `old${i + 1}`),
    );
    await rig.join(bo, room.roomId);
    // A night away: 150 messages Bo has not read.
    await rig.seed(
      room.roomId,
      ana.userId,
      Array.from({ length: 150 }, (_, i) => `new${i + 1}`),
    );
    const sb = await rig.open(bo);
    const answer = await rig.watch(sb, room.roomId);
    if (!answer.ok) throw new Error(answer.message);
    expect(answer.lastReadId).toBe(40);
    const texts = answer.messages.map((m) => m.text);
    // A little context before the first unread, then unread ones up to a full page.
    expect(texts.slice(0, 21)).toEqual([...Array.from({ length: 20 }, (_, i) => `old${i + 21}`), 'new1']);
    expect(texts).toHaveLength(100);
    expect(answer).toMatchObject({ hasOlder: true, hasNewer: true });
    const rest = (await (
      await rig.call(bo, `/api/rooms/${room.roomId}/messages?after=${answer.messages.at(-1)!.id}&limit=100`)
    ).json()) as MessagePage;
    expect(rest.messages.map((m) => m.text)).toEqual(Array.from({ length: 70 }, (_, i) => `new${i + 81}`));
    expect(rest.hasMore).toBe(false);
  });
});

describe('group rooms: edits, deletions, reactions, mentions', () => {
  it('only the author edits; the author or a moderator deletes; reactions are emoji', async () => {
    const {
      people: [ana, bo, cy],
      room,
      sockets: [sa, sb, sc],
    } = await rig.gathering();
    const r = await rig.post(sb, room.roomId, 'typo heer');
    const id = r.ok ? r.message.id : 0;
    expect(await sc.timeout(5000).emitWithAck(wire.edit, { roomId: room.roomId, id, text: 'hijacked' })).toMatchObject({
      code: 'not_author',
    });
    expect(await sa.timeout(5000).emitWithAck(wire.edit, { roomId: room.roomId, id, text: 'owner edit' })).toMatchObject({
      code: 'not_author',
    });
    const changed = next<RoomMessage>(sc, wire.changed);
    expect(await sb.timeout(5000).emitWithAck(wire.edit, { roomId: room.roomId, id, text: 'typo here' })).toEqual({ ok: true });
    expect(await changed).toMatchObject({ id, text: 'typo here' });
    expect((await changed).editedAt).not.toBeNull();
    expect(await sc.timeout(5000).emitWithAck(wire.react, { roomId: room.roomId, id, emoji: 'lol', on: true })).toMatchObject({
      code: 'validation_failed',
    });
    const reacted = next<RoomMessage>(sb, wire.changed);
    expect(await sc.timeout(5000).emitWithAck(wire.react, { roomId: room.roomId, id, emoji: '🎉', on: true })).toEqual({ ok: true });
    expect((await reacted).reactions).toEqual([{ emoji: '🎉', userIds: [cy.userId] }]);
    expect(await sc.timeout(5000).emitWithAck(wire.delete, { roomId: room.roomId, id })).toMatchObject({ code: 'not_author' });
    const deleted = next<RoomMessage>(sc, wire.changed);
    expect(await sa.timeout(5000).emitWithAck(wire.delete, { roomId: room.roomId, id })).toEqual({ ok: true });
    expect(await deleted).toMatchObject({ id, deleted: true, text: '' });
    const log = (await (await rig.call(ana, `/api/groups/${room.roomId}/moderation`)).json()) as {
      entries: Array<{ action: string; target: string }>;
    };
    expect(log.entries[0]).toMatchObject({ action: 'removeMessage', target: bo.username });
  });

  it('an @mention of a member is stored with the message and announced once; a non-member is not', async () => {
    const [ana, bo, outsider] = await Promise.all([rig.account(), rig.account(), rig.account()]);
    const room = await rig.createRoom(ana, { name: 'Mentions' });
    await rig.join(bo, room.roomId);
    const sa = await rig.open(ana);
    await rig.watch(sa, room.roomId);
    const heard: Array<StoredRoomEvents['mentioned']> = [];
    // The stored-room events the server composed: what the notifier follows.
    t.server().storedRooms.on('mentioned', (e) => heard.push(e));
    const r = await rig.post(sa, room.roomId, `hey @${bo.username.toUpperCase()} and @${outsider.username} and @${ana.username}`);
    expect(r.ok && r.message.mentions).toEqual([bo.userId]);
    expect(heard).toEqual([
      expect.objectContaining({
        mentionedUserId: bo.userId,
        roomId: room.roomId,
        roomName: 'Mentions',
        senderId: ana.userId,
        messageId: r.ok ? r.message.id : 0,
      }),
    ]);
    // The mentioned member finds it among their notifications, linking to the message in the room; nobody else does.
    const notes = async (who: { token: string }) =>
      ((await (await rig.call(who, '/api/notifications')).json()) as NotificationPage).notificationList.filter((n) => n.kind === 'mention');
    await expect
      .poll(async () => (await notes(bo)).map((n) => [n.link, n.text]))
      .toEqual([
        [
          `/groupchat/${room.roomId}?message=${r.ok ? r.message.id : 0}`,
          `${ana.username} mentioned you in Mentions: ${r.ok ? r.message.text : ''}`,
        ],
      ]);
    expect(await notes(outsider)).toEqual([]);
    expect(await notes(ana)).toEqual([]);

    // A mention in a thread's reply links to the thread.
    const root = r.ok ? r.message.id : 0;
    const reply = await rig.post(sa, room.roomId, `@${bo.username} over here`, { threadId: root });
    expect(reply.ok && reply.message.mentions).toEqual([bo.userId]);
    await expect.poll(async () => (await notes(bo)).map((n) => n.link)).toContain(`/groupchat/${room.roomId}?thread=${root}`);
  });
});

describe('a group room’s activity', () => {
  it('reaches every device of every member, the room open or not, at once and then once a window with the latest message', async () => {
    const [own, bo, outsider] = [await rig.account('own'), await rig.account('bo'), await rig.account('out')];
    const room = await rig.createRoom(own);
    await rig.join(bo, room.roomId);
    const [writer, boPhone, boLaptop, stranger] = await Promise.all([rig.open(own), rig.open(bo), rig.open(bo), rig.open(outsider)]);
    const first = next<UnreadNotice>(boPhone, wire.activity);
    const onLaptop = next<UnreadNotice>(boLaptop, wire.activity);
    const nothing = silent(stranger, wire.activity, 1500);
    const one = await rig.post(writer, room.roomId, 'one');
    if (!one.ok) throw new Error(one.message);
    expect(await first).toEqual({
      roomId: room.roomId,
      kind: 'group',
      lastMessageId: one.message.id,
      senderId: own.userId,
      sentAt: one.message.sentAt,
    });
    expect((await onLaptop).lastMessageId).toBe(one.message.id);
    // Four more at once: fewer notices than messages (what comes within a window is told at its end), the last of the latest.
    const later: UnreadNotice[] = [];
    boPhone.on(wire.activity, (n: UnreadNotice) => later.push(n));
    const answers = await Promise.all(['two', 'three', 'four', 'five'].map((text) => rig.post(writer, room.roomId, text)));
    const latest = Math.max(...answers.map((a) => (a.ok ? a.message.id : 0)));
    expect(latest).toBe(one.message.id + 4);
    await expect.poll(() => later.at(-1)?.lastMessageId, { timeout: 5000 }).toBe(latest);
    await new Promise((r) => setTimeout(r, 1500));
    expect(later.length).toBeLessThan(4);
    expect(later.at(-1)?.lastMessageId).toBe(latest);
    // Someone not in the room hears nothing of it.
    expect(await nothing).toBe(true);
  });
});
