import { describe, expect, it } from 'vitest';
import { roomEvents as wire, type MessagePage, type ReadReceipt, type RoomMessage, type UnreadNotice } from '@parley/contract/rooms';
import type { ConversationsAnswer, OpenDirectAnswer } from '@parley/contract/direct';
import { next, socketTestServer } from '../testing/socketClients.ts';
import { eq } from 'drizzle-orm';
import { storedRoomRig } from '../testing/storedRoomRig.ts';
import { users } from '../db/schema.ts';
import type { StoredRoomEvents } from '../deps.ts';

const t = socketTestServer();
const rig = storedRoomRig(t.server, (u) => t.open(u));
const openWith = async (who: { token: string }, username: string) => rig.call(who, `/api/direct/${username}`, { method: 'POST' });

describe('direct messages between friends', () => {
  it('one room per pair, opened by either; stored, paged, unread counted, read receipts, every device reached', async () => {
    const [ana, bo] = await Promise.all([rig.account('ana'), rig.account('bo')]);
    await rig.befriend(ana, bo);
    const a = (await (await openWith(ana, bo.username)).json()) as OpenDirectAnswer;
    const b = (await (await openWith(bo, ana.username.toUpperCase())).json()) as OpenDirectAnswer;
    expect(a.roomId).toBe(b.roomId);
    expect(a).toMatchObject({ userId: bo.userId, username: bo.username });

    const directEvents: Array<StoredRoomEvents['directMessage']> = [];
    t.server().storedRooms.on('directMessage', (e) => directEvents.push(e));
    // Bo has two devices, neither with the conversation open.
    const [sa, bPhone, bLaptop] = await Promise.all([rig.open(ana), rig.open(bo), rig.open(bo)]);
    await rig.watch(sa, a.roomId);
    const onPhone = next<UnreadNotice>(bPhone, wire.activity);
    const onLaptop = next<UnreadNotice>(bLaptop, wire.activity);
    const sent = await rig.post(sa, a.roomId, 'hi Bo');
    expect(sent.ok).toBe(true);
    const id = sent.ok ? sent.message.id : 0;
    expect(await onPhone).toEqual({
      roomId: a.roomId,
      kind: 'direct',
      lastMessageId: id,
      senderId: ana.userId,
      sentAt: sent.ok ? sent.message.sentAt : 0,
    });
    expect((await onLaptop).lastMessageId).toBe(id);
    expect(directEvents).toEqual([
      { recipientId: bo.userId, roomId: a.roomId, senderId: ana.userId, senderName: ana.username, messageId: id, preview: 'hi Bo' },
    ]);

    await rig.seed(a.roomId, ana.userId, ['two', 'three']);
    const list = (await (await rig.call(bo, '/api/direct')).json()) as ConversationsAnswer;
    expect(list.unreadTotal).toBe(3);
    expect(list.conversations[0]).toMatchObject({
      roomId: a.roomId,
      username: ana.username,
      unread: 3,
      online: true,
      lastMessage: { text: 'three' },
    });
    const page = (await (await rig.call(bo, `/api/rooms/${a.roomId}/messages?limit=2`)).json()) as MessagePage;
    expect(page.messages.map((m) => m.text)).toEqual(['two', 'three']);
    expect(page.hasMore).toBe(true);

    // Bo opens it on the phone: sees the messages, reads them, and Ana gets the receipt.
    const joined = await rig.watch(bPhone, a.roomId);
    expect(joined.ok && joined.messages.map((m) => m.text)).toEqual(['hi Bo', 'two', 'three']);
    const receipt = next<ReadReceipt>(sa, wire.read);
    await bPhone.timeout(5000).emitWithAck(wire.read, { roomId: a.roomId, lastReadId: id + 2 });
    expect(await receipt).toEqual({ roomId: a.roomId, userId: bo.userId, lastReadId: id + 2 });
    expect(((await (await rig.call(bo, '/api/direct')).json()) as ConversationsAnswer).unreadTotal).toBe(0);
    // A reply reaches Ana live.
    const reply = next<RoomMessage>(sa, wire.message);
    await rig.post(bPhone, a.roomId, 'hey Ana');
    expect((await reply).text).toBe('hey Ana');
  });

  it('a premium sender’s badge and name colour come with their messages, and go when the tier does', async () => {
    const [ana, bo] = await Promise.all([rig.account('ana'), rig.account('bo')]);
    await rig.befriend(ana, bo);
    const { roomId } = (await (await openWith(ana, bo.username)).json()) as OpenDirectAnswer;
    const db = t.server().deps.db;
    // What a confirmed subscription and a chosen colour leave in the database.
    await db.update(users).set({ premiumUser: 'plus', nameColour: 'rose' }).where(eq(users.id, ana.userId));
    const sa = await rig.open(ana);
    await rig.watch(sa, roomId);
    const sent = await rig.post(sa, roomId, 'in colour');
    expect(sent.ok && sent.message.senderStyle).toEqual({ badge: true, nameColour: 'rose' });
    const read = async () => ((await (await rig.call(bo, `/api/rooms/${roomId}/messages`)).json()) as MessagePage).messages[0]!.senderStyle;
    expect(await read()).toEqual({ badge: true, nameColour: 'rose' });
    await db.update(users).set({ premiumUser: 'free tier' }).where(eq(users.id, ana.userId));
    expect(await read()).toEqual({ badge: false, nameColour: null });
  });

  it('a non-friend cannot open, read or write; a third person cannot read a pair’s room (IDOR)', async () => {
    const [ana, bo, eve] = await Promise.all([rig.account(), rig.account(), rig.account()]);
    const stranger = await openWith(eve, ana.username);
    expect(stranger.status).toBe(403);
    expect(await stranger.json()).toMatchObject({ code: 'not_friends' });
    expect((await openWith(eve, 'nobody_here')).status).toBe(404);
    expect((await openWith(eve, eve.username)).status).toBe(404);
    expect((await openWith(eve, 'bad name!')).status).toBe(400);

    await rig.befriend(ana, bo);
    const { roomId } = (await (await openWith(ana, bo.username)).json()) as OpenDirectAnswer;
    const se = await rig.open(eve);
    expect((await rig.call(eve, `/api/rooms/${roomId}/messages`)).status).toBe(403);
    expect(await rig.watch(se, roomId)).toMatchObject({ ok: false, code: 'not_member' });
    expect(await rig.post(se, roomId, 'hi')).toMatchObject({ ok: false, code: 'not_member' });
    expect(((await (await rig.call(eve, '/api/direct')).json()) as ConversationsAnswer).conversations).toEqual([]);
    // Friends no more: the room stays, closed to both.
    await t
      .server()
      .deps.db.execute(
        (await import('drizzle-orm')).sql`delete from friendships where user_low = least(${ana.userId}::uuid, ${bo.userId}::uuid)`,
      );
    expect((await rig.call(ana, `/api/rooms/${roomId}/messages`)).status).toBe(403);
    expect(((await (await rig.call(ana, '/api/direct')).json()) as ConversationsAnswer).conversations).toEqual([]);
  });
});
