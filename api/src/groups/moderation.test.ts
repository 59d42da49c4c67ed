import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import { roomEvents as wire, type ModerateAnswer, type MutedInRoom, type RemovedFromRoom } from '@parley/contract/rooms';
import { sql } from 'drizzle-orm';
import type { GroupDetail } from '@parley/contract/groups';
import { next, silent, socketTestServer } from '../testing/socketClients.ts';
import { storedRoomRig } from '../testing/storedRoomRig.ts';

const t = socketTestServer();
const rig = storedRoomRig(t.server, (u) => t.open(u));

async function roomOfThree() {
  const {
    people: [owner, mod, troll],
    room,
    sockets: [so, sm, st],
  } = await rig.gathering(['own', 'mod', 'troll']);
  return { owner, mod, troll, room, so, sm, st };
}

describe('group moderation, enforced on the server', () => {
  it('a muted member cannot post until the mute ends or is lifted', async () => {
    const { owner, troll, room, st } = await roomOfThree();
    expect((await rig.moderate(owner, room.roomId, { action: 'mute', userId: troll.userId, minutes: 10 })).status).toBe(200);
    const refused = await rig.post(st, room.roomId, 'spam');
    expect(refused).toMatchObject({ ok: false, code: 'muted' });
    expect(!refused.ok && refused.retryAfterS).toBeGreaterThan(590);
    await rig.moderate(owner, room.roomId, { action: 'unmute', userId: troll.userId });
    expect((await rig.post(st, room.roomId, 'sorry')).ok).toBe(true);
  });

  it('a mute survives leaving and joining again, and a kick and joining again; the muted person’s pages are told until when', async () => {
    const { owner, troll, room, st } = await roomOfThree();
    const told = next<MutedInRoom>(st, wire.muted);
    expect((await rig.moderate(owner, room.roomId, { action: 'mute', userId: troll.userId, minutes: 60 })).status).toBe(200);
    const { mutedUntil } = await told;
    expect(mutedUntil! - Date.now()).toBeGreaterThan(59 * 60_000);
    expect((await rig.call(troll, `/api/groups/${room.roomId}/leave`, { method: 'POST' })).status).toBeLessThan(300);
    expect((await rig.join(troll, room.roomId)).status).toBe(200);
    const rejoined = await rig.watch(st, room.roomId);
    expect(rejoined.ok && rejoined.mutedUntil).toBe(mutedUntil);
    const refused = await rig.post(st, room.roomId, 'back and loud');
    expect(refused).toMatchObject({ ok: false, code: 'muted' });
    expect(!refused.ok && refused.retryAfterS).toBeGreaterThan(59 * 60);
    await rig.moderate(owner, room.roomId, { action: 'kick', userId: troll.userId, reason: '' });
    expect((await rig.join(troll, room.roomId)).status).toBe(200);
    await rig.watch(st, room.roomId);
    expect(await rig.post(st, room.roomId, 'kicked and back')).toMatchObject({ ok: false, code: 'muted' });
    const lifted = next<MutedInRoom>(st, wire.muted);
    await rig.moderate(owner, room.roomId, { action: 'unmute', userId: troll.userId });
    expect(await lifted).toEqual({ roomId: room.roomId, mutedUntil: null });
    expect((await rig.post(st, room.roomId, 'sorry')).ok).toBe(true);
  });

  it('a kicked member is told why, leaves the live room and may come back; a banned one may not', async () => {
    const { owner, troll, room, st, so } = await roomOfThree();
    const kicked = next<RemovedFromRoom>(st, wire.removed);
    await rig.moderate(owner, room.roomId, { action: 'kick', userId: troll.userId, reason: 'be nice' });
    expect(await kicked).toEqual({
      roomId: room.roomId,
      reason: 'kicked',
      by: owner.username,
      note: `${owner.username} removed you from this room: be nice`,
    });
    expect(await rig.post(st, room.roomId, 'hello?')).toMatchObject({ ok: false, code: 'not_member' });
    // Out of the live room: what is said now does not reach the kicked page.
    const unheard = silent(st, wire.message);
    expect((await rig.post(so, room.roomId, 'without the troll')).ok).toBe(true);
    expect(await unheard).toBe(true);
    expect((await rig.join(troll, room.roomId)).status).toBe(200);
    await rig.watch(st, room.roomId);
    const banned = next<RemovedFromRoom>(st, wire.removed);
    await rig.moderate(owner, room.roomId, { action: 'ban', userId: troll.userId, reason: '' });
    expect((await banned).reason).toBe('banned');
    const again = await rig.join(troll, room.roomId);
    expect(again.status).toBe(403);
    expect(await again.json()).toMatchObject({ code: 'banned' });
    expect(await (await rig.call(troll, `/api/groups/${room.roomId}`)).json()).toMatchObject({ code: 'banned' });
    expect((await rig.call(troll, `/api/rooms/${room.roomId}/messages`)).status).toBe(403);
    expect(await rig.post(st, room.roomId, 'let me back')).toMatchObject({ ok: false, code: 'banned' });
  });

  it('someone who trolled and left can still be banned; nobody can be banned who does not exist', async () => {
    const { owner, troll, room, st } = await roomOfThree();
    expect((await rig.post(st, room.roomId, 'spam and run')).ok).toBe(true);
    expect((await rig.call(troll, `/api/groups/${room.roomId}/leave`, { method: 'POST' })).status).toBe(204);
    // A kick needs someone in the room; a ban does not.
    expect((await rig.moderate(owner, room.roomId, { action: 'kick', userId: troll.userId })).status).toBe(404);
    expect((await rig.moderate(owner, room.roomId, { action: 'ban', userId: troll.userId, reason: 'spam' })).status).toBe(200);
    const back = await rig.join(troll, room.roomId);
    expect(back.status).toBe(403);
    expect(await back.json()).toMatchObject({ code: 'banned' });
    const nobody = await rig.moderate(owner, room.roomId, { action: 'ban', userId: '00000000-0000-4000-8000-000000000000' });
    expect(nobody.status).toBe(404);
    expect(await nobody.json()).toMatchObject({ code: 'unknown_user' });
  });

  it('only the owner appoints; a moderator then mutes a member but not the owner or another moderator', async () => {
    const { owner, mod, troll, room } = await roomOfThree();
    expect((await rig.moderate(mod, room.roomId, { action: 'mute', userId: troll.userId, minutes: 5 })).status).toBe(403);
    expect((await rig.moderate(troll, room.roomId, { action: 'appoint', userId: troll.userId })).status).toBe(403);
    expect((await rig.moderate(owner, room.roomId, { action: 'appoint', userId: mod.userId })).status).toBe(200);
    expect((await rig.moderate(mod, room.roomId, { action: 'mute', userId: troll.userId, minutes: 5 })).status).toBe(200);
    const outranked = await rig.moderate(mod, room.roomId, { action: 'kick', userId: owner.userId });
    expect(outranked.status).toBe(403);
    expect(await outranked.json()).toMatchObject({ message: 'You cannot do this to the room owner or a fellow moderator.' });
    // The same refusal, a whole sentence of the catalog, in the language the page asks for.
    const inTurkish = await t.server().api(`/api/groups/${room.roomId}/moderation`, {
      method: 'POST',
      json: { action: 'kick', userId: owner.userId },
      headers: { authorization: `Bearer ${mod.token}`, 'accept-language': 'tr' },
    });
    expect(await inTurkish.json()).toMatchObject({
      code: 'outranked',
      message: 'Bunu oda sahibine ya da başka bir moderatöre yapamazsın.',
    });
    expect((await rig.moderate(mod, room.roomId, { action: 'close' })).status).toBe(403);
    expect((await rig.moderate(mod, room.roomId, { action: 'mute', userId: troll.userId, minutes: 0 })).status).toBe(400);
    const log = (await (await rig.call(mod, `/api/groups/${room.roomId}/moderation`)).json()) as {
      entries: Array<{ action: string; actor: string }>;
    };
    expect(log.entries.map((e) => [e.action, e.actor])).toEqual([
      ['mute', mod.username],
      ['appoint', owner.username],
    ]);
    // The record is the moderators'.
    expect((await rig.call(troll, `/api/groups/${room.roomId}/moderation`)).status).toBe(403);
  });

  it('slow mode spaces one person’s messages; read-only leaves only moderators writing', async () => {
    const { owner, room, st, so } = await roomOfThree();
    await rig.moderate(owner, room.roomId, { action: 'slowMode', seconds: 30 });
    expect((await rig.post(st, room.roomId, 'one')).ok).toBe(true);
    expect(await rig.post(st, room.roomId, 'two')).toMatchObject({ ok: false, code: 'slow_mode' });
    // The owner is not slowed down.
    expect((await rig.post(so, room.roomId, 'a')).ok).toBe(true);
    expect((await rig.post(so, room.roomId, 'b')).ok).toBe(true);
    await rig.moderate(owner, room.roomId, { action: 'slowMode', seconds: 0 });
    await rig.moderate(owner, room.roomId, { action: 'readOnly', on: true });
    expect(await rig.post(st, room.roomId, 'three')).toMatchObject({ ok: false, code: 'read_only' });
    expect((await rig.post(so, room.roomId, 'announcement')).ok).toBe(true);
  });

  it('transfers ownership, then the new owner closes the room: everyone is told and it is gone from the list', async () => {
    const { owner, mod, room, sm } = await roomOfThree();
    await rig.moderate(owner, room.roomId, { action: 'transfer', userId: mod.userId });
    const detail = (await (await rig.call(mod, `/api/groups/${room.roomId}`)).json()) as GroupDetail;
    expect(detail).toMatchObject({ role: 'owner', roomOwner: mod.username });
    expect((await rig.moderate(owner, room.roomId, { action: 'close' })).status).toBe(403);
    const closed = next<RemovedFromRoom>(sm, wire.removed);
    expect((await rig.moderate(mod, room.roomId, { action: 'close' })).status).toBe(200);
    expect((await closed).reason).toBe('closed');
    expect(await (await rig.call(owner, `/api/groups/${room.roomId}`)).json()).toMatchObject({ code: 'closed' });
    expect(await rig.post(sm, room.roomId, 'anyone?')).toMatchObject({ ok: false, code: 'closed' });
  });

  it('a moderator cannot act on another room (IDOR)', async () => {
    const { owner, troll } = await roomOfThree();
    const other = await rig.createRoom(await rig.account());
    await rig.join(troll, other.roomId);
    expect((await rig.moderate(owner, other.roomId, { action: 'kick', userId: troll.userId })).status).toBe(403);
    expect((await rig.call(owner, `/api/groups/${other.roomId}/moderation`)).status).toBe(403);
  });
});

/** `room:moderate`: the one way the pages moderate, any kind of room. */
const moderate = (s: Socket, payload: unknown) => s.timeout(5000).emitWithAck(wire.moderate, payload) as Promise<ModerateAnswer>;

describe('room:moderate, the one moderation path of every room kind', () => {
  it('moderates a group room over the socket as over HTTP: the same checks, the same record, the same notices', async () => {
    const { owner, mod, troll, room, so, sm, st } = await roomOfThree();
    const told = next<MutedInRoom>(st, wire.muted);
    expect(await moderate(so, { roomId: room.roomId, action: 'mute', userId: troll.userId, minutes: 15 })).toEqual({ ok: true });
    expect((await told).mutedUntil! - Date.now()).toBeGreaterThan(14 * 60_000);
    expect(await rig.post(st, room.roomId, 'hm')).toMatchObject({ ok: false, code: 'muted' });
    // A member moderating, a moderator on a fellow moderator or on the owner: refused.
    expect(await moderate(st, { roomId: room.roomId, action: 'unmute', userId: troll.userId })).toMatchObject({
      ok: false,
      code: 'not_moderator',
    });
    expect(await moderate(st, { roomId: room.roomId, action: 'slowMode', seconds: 0 })).toMatchObject({ ok: false, code: 'not_moderator' });
    expect(await moderate(so, { roomId: room.roomId, action: 'appoint', userId: mod.userId })).toEqual({ ok: true });
    const other = await rig.account('mod2');
    await rig.join(other, room.roomId);
    expect(await moderate(so, { roomId: room.roomId, action: 'appoint', userId: other.userId })).toEqual({ ok: true });
    expect(await moderate(sm, { roomId: room.roomId, action: 'kick', userId: other.userId })).toMatchObject({
      ok: false,
      code: 'outranked',
    });
    expect(await moderate(sm, { roomId: room.roomId, action: 'ban', userId: owner.userId })).toMatchObject({
      ok: false,
      code: 'outranked',
    });
    expect(await moderate(sm, { roomId: room.roomId, action: 'dismiss', userId: other.userId })).toMatchObject({
      ok: false,
      code: 'not_owner',
    });
    const kicked = next<RemovedFromRoom>(st, wire.removed);
    expect(await moderate(sm, { roomId: room.roomId, action: 'kick', userId: troll.userId, reason: 'cool off' })).toEqual({ ok: true });
    expect(await kicked).toMatchObject({ reason: 'kicked', by: mod.username });
    // Nobody who does not exist is acted on (and nothing is recorded about them).
    const nobody = '00000000-0000-4000-8000-000000000000';
    for (const action of ['unmute', 'unban', 'appoint'])
      expect(await moderate(so, { roomId: room.roomId, action, userId: nobody })).toMatchObject({ ok: false });
    expect(await moderate(so, { roomId: room.roomId, action: 'unban', userId: nobody })).toMatchObject({ code: 'unknown_user' });
    const invite = await moderate(so, { roomId: room.roomId, action: 'rotateInvite' });
    expect(invite.ok && typeof invite.invite).toBe('string');
    const log = (await (await rig.call(owner, `/api/groups/${room.roomId}/moderation`)).json()) as { entries: Array<{ action: string }> };
    expect(log.entries.map((e) => e.action)).toEqual(['rotateInvite', 'kick', 'appoint', 'appoint', 'mute']);
  });

  it('refuses rooms that are not a group or a stream (a direct room, a channel, an unknown or 1:1 id) and bad payloads, without a crash', async () => {
    const [a, b] = [await rig.account('a'), await rig.account('b')];
    await rig.befriend(a, b);
    const opened = (await (await rig.call(a, `/api/direct/${b.username}`, { method: 'POST' })).json()) as { roomId: string };
    const sa = await rig.open(a);
    expect(await moderate(sa, { roomId: opened.roomId, action: 'mute', userId: b.userId, minutes: 5 })).toMatchObject({
      ok: false,
      code: 'unknown_room',
    });
    expect((await rig.moderate(a, opened.roomId, { action: 'close' })).status).toBe(404);
    // A broadcaster's channel keeps their streams' moderation; it is no room to moderate or read.
    const made = await t
      .server()
      .deps.db.execute(
        sql`insert into stored_rooms (kind, owner_id, channel_of) values ('channel', ${a.userId}, ${a.userId}) returning id`,
      );
    const channel = { roomId: (made as unknown as { rows: Array<{ id: string }> }).rows[0]!.id };
    expect(await moderate(sa, { roomId: channel.roomId, action: 'ban', userId: b.userId })).toMatchObject({
      ok: false,
      code: 'unknown_room',
    });
    expect(await rig.watch(sa, channel.roomId)).toMatchObject({ ok: false, code: 'unknown_room' });
    expect((await rig.call(a, `/api/rooms/${channel.roomId}/messages`)).status).toBe(404);
    expect(await moderate(sa, { roomId: randomUUID(), action: 'ban', userId: b.userId })).toMatchObject({
      ok: false,
      code: 'unknown_room',
    });
    for (const bad of [
      { roomId: 'text-room-1', action: 'ban', userId: b.userId },
      { roomId: opened.roomId, action: 'ban', userId: 'not-a-uuid' },
      { roomId: opened.roomId, action: 'mute', userId: b.userId, minutes: 10 ** 9 },
      { roomId: opened.roomId, action: 'slowMode', seconds: 'fast' },
      { roomId: opened.roomId, action: 'ban', userId: b.userId, reason: 'x'.repeat(201) },
      { roomId: opened.roomId, action: 'nuke' },
      { roomId: opened.roomId },
      null,
      'junk',
    ])
      expect(await moderate(sa, bad)).toMatchObject({ ok: false, code: 'validation_failed' });
    // Still connected and answering.
    expect(sa.connected).toBe(true);
  });
});
