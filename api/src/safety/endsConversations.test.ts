import { describe, expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import { chatEvents, type PartnerLeft, type RoomSetup } from '@parley/contract/matchmaking';
import { safetyEvents, type Blocked } from '@parley/contract/safety';
import { DIRECT_REFUSALS, type OpenDirectAnswer } from '@parley/contract/direct';
import { roomEvents as wire, type RemovedFromRoom, type RoomMessage } from '@parley/contract/rooms';
import { joinAll, next, postTo, search, silent, socketTestServer } from '../testing/socketClients.ts';
import { storedRoomRig } from '../testing/storedRoomRig.ts';

const t = socketTestServer();
const rig = storedRoomRig(t.server, (u) => t.open(u));

const report = (who: { token: string }, json: Record<string, unknown>) => rig.call(who, '/api/reports', { method: 'POST', json });

/** Two real accounts matched in a 1:1 room of `roomType`, each with one socket. */
async function chatting(roomType: 'textChat' | 'videoChat' = 'textChat') {
  const [ana, bo] = await Promise.all([rig.account('ana'), rig.account('bo')]);
  const [ka, kb] = await Promise.all([t.open(ana), t.open(bo)]);
  const ma = next<RoomSetup>(ka, chatEvents.matched);
  const mb = next<RoomSetup>(kb, chatEvents.matched);
  ka.emit(chatEvents.start, search({ roomType }));
  await next(ka, chatEvents.searching);
  kb.emit(chatEvents.start, search({ roomType }));
  const [room] = await Promise.all([ma, mb]);
  await joinAll(room.roomId, ka, kb);
  const say = (s: Socket, text: string) => postTo(s, room.roomId, text);
  return { ana, bo, ka, kb, roomId: room.roomId, say };
}

describe('a report or a block ends the 1:1 chat at once', () => {
  it('a report with block in a text chat: the reporter hears `reported`, the reported person `left`, and nothing more passes', async () => {
    const { ana, bo, ka, kb, roomId, say } = await chatting();
    expect((await say(kb, 'hello')).ok).toBe(true);
    const reporterTold = next<PartnerLeft>(ka, chatEvents.partnerLeft);
    const reportedTold = next<PartnerLeft>(kb, chatEvents.partnerLeft);
    const res = await report(ana, { reportedUserId: bo.userId, context: 'textChat', roomId, reason: 'harassment' });
    expect(res.status).toBe(201);
    expect(await reporterTold).toEqual({ roomId, reason: 'reported' });
    // The same notice as a partner pressing Leave: never why.
    expect(await reportedTold).toEqual({ roomId, reason: 'left' });
    const arrives = silent(ka, wire.message, 400);
    expect(await say(kb, 'are you there?')).toMatchObject({ ok: false, code: 'not_in_room' });
    expect(await arrives).toBe(true);
  });

  it('a report without block ends the chat too: a reporter wants out', async () => {
    const { ana, bo, ka, kb, roomId } = await chatting();
    const reporterTold = next<PartnerLeft>(ka, chatEvents.partnerLeft);
    const reportedTold = next<PartnerLeft>(kb, chatEvents.partnerLeft);
    const res = await report(ana, { reportedUserId: bo.userId, context: 'textChat', roomId, reason: 'spam', block: false });
    expect(res.status).toBe(201);
    expect(await reporterTold).toEqual({ roomId, reason: 'reported' });
    expect(await reportedTold).toEqual({ roomId, reason: 'left' });
  });

  it('a video chat ends on both pages when the partner is reported, so both close their peer connection', async () => {
    const { ana, bo, ka, kb, roomId } = await chatting('videoChat');
    const reporterTold = next<PartnerLeft>(ka, chatEvents.partnerLeft);
    const reportedTold = next<PartnerLeft>(kb, chatEvents.partnerLeft);
    expect((await report(ana, { reportedUserId: bo.userId, context: 'videoChat', roomId, reason: 'nudity' })).status).toBe(201);
    expect(await reporterTold).toEqual({ roomId, reason: 'reported' });
    expect(await reportedTold).toEqual({ roomId, reason: 'left' });
  });

  it('a block from a profile (another tab) ends the chat the same way', async () => {
    const { ana, bo, ka, kb, roomId } = await chatting();
    const reporterTold = next<PartnerLeft>(ka, chatEvents.partnerLeft);
    const reportedTold = next<PartnerLeft>(kb, chatEvents.partnerLeft);
    const res = await rig.call(ana, '/api/settings/blocks', { method: 'POST', json: { username: bo.username } });
    expect(res.status).toBeLessThan(300);
    expect(await reporterTold).toEqual({ roomId, reason: 'reported' });
    expect(await reportedTold).toEqual({ roomId, reason: 'left' });
  });

  it('a report of someone else leaves the reporter’s chat alone', async () => {
    const { ana, ka, kb, say } = await chatting();
    const other = await rig.account('eve');
    const untouched = Promise.all([silent(ka, chatEvents.partnerLeft, 500), silent(kb, chatEvents.partnerLeft, 500)]);
    expect((await report(ana, { reportedUserId: other.userId, context: 'profile', reason: 'spam' })).status).toBe(201);
    expect(await untouched).toEqual([true, true]);
    expect((await say(kb, 'still here')).ok).toBe(true);
  });
});

describe('a block in a group room', () => {
  it('the blocked person’s messages stop reaching the blocker (every tab is told), and still reach everyone else', async () => {
    const g = await rig.gathering(['own', 'bo', 'cy']);
    const [own, bo, cy] = g.people;
    const [, kb, kc] = g.sockets;
    // Cy's second tab, following the room too.
    const kc2 = await t.open(cy);
    await rig.watch(kc2, g.room.roomId);
    const told = Promise.all([next<Blocked>(kc, safetyEvents.blocked), next<Blocked>(kc2, safetyEvents.blocked)]);
    const res = await report(cy, { reportedUserId: bo.userId, context: 'group', roomId: g.room.roomId, reason: 'harassment' });
    expect(res.status).toBe(201);
    expect(await told).toEqual([{ userId: bo.userId }, { userId: bo.userId }]);
    const toOwner = next<RoomMessage>(g.sockets[0], wire.message, (m) => m.text === 'after the block');
    const notToCy = Promise.all([silent(kc, wire.message, 600), silent(kc2, wire.message, 600)]);
    expect((await rig.post(kb, g.room.roomId, 'after the block')).ok).toBe(true);
    expect((await toOwner).senderId).toBe(bo.userId);
    expect(await notToCy).toEqual([true, true]);
    // Others' messages still reach Cy.
    const fromOwner = next<RoomMessage>(kc, wire.message);
    expect((await rig.post(g.sockets[0], g.room.roomId, 'hello again')).ok).toBe(true);
    expect((await fromOwner).senderId).toBe(own.userId);
  });
});

describe('a block in direct messages', () => {
  it('closes the conversation both ways with a clear message, and the open pages are told', async () => {
    const [ana, bo] = await Promise.all([rig.account('ana'), rig.account('bo')]);
    await rig.befriend(ana, bo);
    const { roomId } = (await (await rig.call(ana, `/api/direct/${bo.username}`, { method: 'POST' })).json()) as OpenDirectAnswer;
    const [ka, kb] = await Promise.all([t.open(ana), t.open(bo)]);
    await rig.watch(ka, roomId);
    await rig.watch(kb, roomId);
    expect((await rig.post(kb, roomId, 'hi')).ok).toBe(true);
    const closed = Promise.all([next<RemovedFromRoom>(ka, wire.removed), next<RemovedFromRoom>(kb, wire.removed)]);
    const res = await report(ana, { reportedUserId: bo.userId, context: 'direct', roomId, reason: 'harassment' });
    expect(res.status).toBe(201);
    for (const r of await closed) expect(r).toMatchObject({ roomId, reason: 'closed', note: DIRECT_REFUSALS.blocked });
    for (const s of [ka, kb])
      expect(await rig.post(s, roomId, 'anyone?')).toMatchObject({ ok: false, code: 'blocked', message: DIRECT_REFUSALS.blocked });
    // Opening it again says the same.
    const again = await rig.watch(kb, roomId);
    expect(again).toMatchObject({ ok: false, code: 'blocked' });
  });
});
