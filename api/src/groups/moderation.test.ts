import { describe, expect, it } from 'vitest';
import { roomEvents as wire, type MutedInRoom, type RemovedFromRoom } from '@parley/contract/rooms';
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
