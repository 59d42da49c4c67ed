import { describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { chatEvents, type RoomSetup } from '@parley/contract/matchmaking';
import type { Realtime } from '../realtime/server.ts';
import { roomEvents, type RoomMessage } from '@parley/contract/rooms';
import { joinAll, joinRoom, next, person, postTo, said, search, silent, socketTestServer } from '../testing/socketClients.ts';
import { startTestServer, type TestServer } from '../testing/server.ts';

const clients = socketTestServer();
const { open, pair } = clients;

describe('a page whose connection dropped', () => {
  it('a reconnection from the same tab replaces the old socket at once; its text chat is held and resumed', async () => {
    const me = person();
    const tab = randomUUID();
    const text = { roomType: 'textChat' as const };
    const { ka, kb, ra } = await pair(me, person(), text, text, { query: { tab } });
    await joinAll(ra.roomId, ka, kb);
    const old = (clients.server().deps.realtime as Realtime).io.sockets.sockets.get(ka.id!)!;
    const away = next<{ roomId: string }>(kb, chatEvents.partnerAway);
    // As when the network dropped: the old connection is still open on the server.
    const again = await open(me, { query: { tab } });
    expect(await away).toEqual({ roomId: ra.roomId });
    expect(old.connected).toBe(false);
    // Meanwhile the partner's messages are kept for the page to catch up on.
    const meanwhile = await said(kb, ra.roomId, 'hello?');
    // The resume needs an acknowledgement and a room id; another page of the same user cannot take it.
    const bad = next<{ event: string; code: string }>(again, chatEvents.error);
    again.emit(chatEvents.resume, { roomId: ra.roomId });
    expect(await bad).toMatchObject({ event: chatEvents.resume, code: 'validation_failed' });
    const otherPage = await open(me, { query: { tab: randomUUID() } });
    expect(await otherPage.emitWithAck(chatEvents.resume, { roomId: ra.roomId })).toEqual({ ok: false });
    const back = next<{ roomId: string }>(kb, chatEvents.partnerBack);
    expect(await again.emitWithAck(chatEvents.resume, { roomId: ra.roomId })).toEqual({ ok: true, partnerAway: false });
    expect(await back).toEqual({ roomId: ra.roomId });
    expect(await joinRoom(again, ra.roomId, 0)).toMatchObject({ ok: true, messages: [meanwhile] });
    const got = next<RoomMessage>(again, roomEvents.message);
    expect(await postTo(kb, ra.roomId, 'welcome back')).toMatchObject({ ok: true });
    expect((await got).text).toBe('welcome back');
    // Closed on purpose (the page unloads): the partner learns at once that the chat ended.
    const left = next<{ reason: string }>(kb, chatEvents.partnerLeft, () => true, 1000);
    again.disconnect();
    expect(await left).toMatchObject({ roomId: ra.roomId, reason: 'disconnected' });
  });

  it.each(['textChat', 'videoChat'] as const)('a %s whose transport dropped is held for its page, and resumed', async (roomType) => {
    const me = person();
    const tab = randomUUID();
    const kind = { roomType };
    const { ka, kb, ra } = await pair(me, person(), kind, kind, { query: { tab } });
    await joinAll(ra.roomId, ka, kb);
    const away = next<{ roomId: string }>(kb, chatEvents.partnerAway);
    ka.io.engine.close();
    expect(await away).toEqual({ roomId: ra.roomId });
    const back = next<{ roomId: string }>(kb, chatEvents.partnerBack);
    const again = await open(me, { query: { tab } });
    expect(await again.emitWithAck(chatEvents.resume, { roomId: ra.roomId })).toEqual({ ok: true, partnerAway: false });
    expect(await back).toEqual({ roomId: ra.roomId });
    await joinAll(ra.roomId, again);
    const got = next<RoomMessage>(kb, roomEvents.message);
    expect(await postTo(again, ra.roomId, 'back')).toMatchObject({ ok: true });
    expect((await got).text).toBe('back');
  });

  /**
   * A text chat matched under search 'search-1' whose first page never reads its `matched`: the
   * page reconnects from the same tab (its old socket replaced, the room held for it).
   */
  async function matchedThenDropped() {
    const me = person();
    const tab = randomUUID();
    const text = { roomType: 'textChat' as const };
    const { kb, ra } = await pair(me, person(), { ...text, searchId: 'search-1' }, text, { query: { tab } });
    await joinAll(ra.roomId, kb);
    const away = next(kb, chatEvents.partnerAway);
    const again = await open(me, { query: { tab } });
    await away;
    return { kb, ra, again };
  }

  it('a page whose `matched` was lost in a drop and that searches again gets that room; the partner does not wait out the grace', async () => {
    const { kb, ra, again } = await matchedThenDropped();
    const back = next<{ roomId: string }>(kb, chatEvents.partnerBack);
    // Back, the page sends its search again under the same id (the client's room connection does so when it was searching).
    const matched = next<RoomSetup>(again, chatEvents.matched);
    again.emit(chatEvents.start, search({ roomType: 'textChat', searchId: 'search-1' }));
    expect(await matched).toEqual(ra);
    expect(await back).toEqual({ roomId: ra.roomId });
    await joinAll(ra.roomId, again);
    const got = next<RoomMessage>(kb, roomEvents.message);
    const text2 = 'sorry, my train went into a tunnel';
    expect(await postTo(again, ra.roomId, text2)).toMatchObject({ ok: true });
    expect((await got).text).toBe(text2);
  });

  it('a page back from a drop that starts a new search (say its Next was lost) ends its held chat at once', async () => {
    const { kb, ra, again } = await matchedThenDropped();
    const left = next<{ roomId: string; reason: string }>(kb, chatEvents.partnerLeft, () => true, 1000);
    again.emit(chatEvents.start, search({ roomType: 'textChat', searchId: 'search-2' }));
    expect(await left).toEqual({ roomId: ra.roomId, reason: 'disconnected' });
    expect(await silent(again, chatEvents.matched, 300)).toBe(true);
  });

  /** A text chat whose first user's page dropped (held by `server`), then that user banned through `banning`. */
  async function banWhileHeld(banning: TestServer, ms: number) {
    const me = person();
    const text = { roomType: 'textChat' as const };
    const { ka, kb, ra } = await pair(me, person(), text, text, { query: { tab: randomUUID() } });
    const away = next(kb, chatEvents.partnerAway);
    ka.io.engine.close();
    await away;
    const left = next<{ roomId: string; reason: string }>(kb, chatEvents.partnerLeft, () => true, ms);
    await (banning.deps.realtime as Realtime).endSession(me.userId, 'account_suspended');
    expect(await left).toEqual({ roomId: ra.roomId, reason: 'disconnected' });
  }

  it('a ban (or sign-out) ends a chat held for a dropped page: the partner is told, nothing can resume it', async () => {
    await banWhileHeld(clients.server(), 1000);
  });

  it.skipIf(!process.env.REDIS_URL)('a ban in another API process ends a chat held in this one (Redis)', async () => {
    // Another process of the same deployment: the same Redis key prefix.
    const other = await startTestServer({ REDIS_KEY_PREFIX: clients.server().deps.cfg.REDIS_KEY_PREFIX });
    try {
      await banWhileHeld(other, 2000);
    } finally {
      await other.close();
    }
  });

  it('a reconnection from the same tab replaces the old socket at once, holding its video chat', async () => {
    const me = person();
    const tab = randomUUID();
    const { ka, kb } = await pair(me, person(), {}, {}, { query: { tab } });
    const old = (clients.server().deps.realtime as Realtime).io.sockets.sockets.get(ka.id!)!;
    const partnerTold = next(kb, chatEvents.partnerAway);
    // As when the network dropped: the old connection is still open on the server.
    const again = await open(me, { query: { tab } });
    await partnerTold;
    expect(old.connected).toBe(false);
    expect(again.connected).toBe(true);
    // Another tab of the same user is not touched.
    const otherTab = await open(me, { query: { tab: randomUUID() } });
    await new Promise((r) => setTimeout(r, 200));
    expect(again.connected && otherTab.connected).toBe(true);
  });
});
