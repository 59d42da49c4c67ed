import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import type { TokenUser } from '@parley/contract/auth';
import { chatEvents, type SocketError } from '@parley/contract/matchmaking';
import { liveEvents, type LiveAck, type LivePublishAnswer, type LiveStream, type LiveWatchAnswer } from '@parley/contract/live';
import { roomEvents, type JoinAnswer, type PostAnswer, type RestrictionsChanged, type RoomMessage } from '@parley/contract/rooms';
import { next, person, silent, socketTestServer } from '../testing/socketClients.ts';
import { storedRoomRig } from '../testing/storedRoomRig.ts';
import { startLocalStun } from './localStun.ts';
import { nodeBroadcaster, nodeViewer } from './nodePeers.ts';

const t = socketTestServer();
// Broadcasters and the people moderation acts on are real accounts: a channel and its moderation are stored.
const rig = storedRoomRig(t.server, (u) => t.open(u));
let stun: Awaited<ReturnType<typeof startLocalStun>>;
beforeAll(async () => {
  stun = await startLocalStun();
});
afterAll(() => stun.close());

async function http(user: TokenUser, method: string, path: string, body?: unknown) {
  const token = await t.server().deps.tokens.sign(user);
  const res = await fetch(`${t.server().url}/api${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

const ask = <A>(s: Socket, event: string, payload: unknown) => s.timeout(10_000).emitWithAck(event, payload) as Promise<A>;

/** A user who went live and whose node broadcaster published to the stream. */
async function liveNow(title = 'Cooking pasta', broadcaster?: TokenUser) {
  const owner = broadcaster ?? (await rig.account('b'));
  const made = await http(owner, 'POST', '/live', { title, category: 'Just chatting' });
  expect(made.status).toBe(201);
  const stream = made.body as unknown as LiveStream;
  const socket = await t.open(owner);
  const caster = nodeBroadcaster(stun.url);
  const published = await ask<LivePublishAnswer>(socket, liveEvents.publish, { roomId: stream.roomId, offer: await caster.offer() });
  if (!published.ok) throw new Error(published.message);
  await caster.accept(published.answer);
  return { owner, stream, socket, caster };
}

async function viewerOf(roomId: string, user = person()) {
  const socket = await t.open(user);
  const answer = await ask<LiveWatchAnswer>(socket, liveEvents.watch, { roomId });
  return { user, socket, answer };
}

/** A stream's chat is a room: a page joins it (after watching) and posts to it like any other. */
const joinChat = (s: Socket, roomId: string, after?: number) =>
  ask<JoinAnswer>(s, roomEvents.join, after === undefined ? { roomId } : { roomId, after });
let clientSeq = 0;
const post = (s: Socket, roomId: string, text: string, clientId = `c${clientSeq++}`) =>
  ask<PostAnswer>(s, roomEvents.post, { roomId, clientId, text });
const texts = (a: JoinAnswer) => (a.ok ? a.messages.filter((m) => !m.deleted).map((m) => m.text) : a.code);

describe('going live', () => {
  it('allows one stream per user, validates the title, and lists published streams', async () => {
    const owner = person();
    const long = await http(owner, 'POST', '/live', { title: 'x'.repeat(81), category: 'Music' });
    expect(long).toMatchObject({ status: 400, body: { code: 'validation_failed', message: 'Title is at most 80 characters' } });
    const badCategory = await http(owner, 'POST', '/live', { title: 'Hi', category: 'Nope' });
    expect(badCategory.status).toBe(400);
    const { stream, owner: o, caster } = await liveNow('Jazz night');
    const again = await http(o, 'POST', '/live', { title: 'Second', category: 'Music' });
    expect(again).toMatchObject({ status: 409, body: { code: 'already_live' } });
    const list = await http(person(), 'GET', '/live?q=jazz');
    expect((list.body.streams as LiveStream[]).map((s) => s.roomId)).toContain(stream.roomId);
    const other = await http(person(), 'GET', '/live?category=Gaming');
    expect((other.body.streams as LiveStream[]).map((s) => s.roomId)).not.toContain(stream.roomId);
    await caster.close();
  });

  it('lets only the owner publish, set the thumbnail and end the stream', async () => {
    const { stream, caster } = await liveNow();
    const stranger = person();
    const ks = await t.open(stranger);
    const intruder = nodeBroadcaster(stun.url);
    const refused = await ask<LivePublishAnswer>(ks, liveEvents.publish, { roomId: stream.roomId, offer: await intruder.offer() });
    expect(refused).toMatchObject({ ok: false, code: 'not_broadcaster' });
    const end = await http(stranger, 'POST', `/live/${stream.roomId}/end`);
    expect(end).toMatchObject({ status: 403, body: { code: 'not_broadcaster' } });
    const thumb = await http(stranger, 'PUT', `/live/${stream.roomId}/thumbnail`, { image: 'data:image/jpeg;base64,AAAA' });
    expect(thumb.status).toBe(403);
    expect((await ask<LiveAck>(ks, liveEvents.end, { roomId: stream.roomId })).ok).toBe(false);
    expect((await http(stranger, 'GET', `/live/${stream.roomId}`)).body.endedAt).toBeUndefined();
    await Promise.all([intruder.close(), caster.close()]);
  });

  it('refuses malformed socket payloads with a readable error', async () => {
    const k = await t.open(person());
    const error = next<SocketError>(k, chatEvents.error);
    k.emit(liveEvents.watch, { roomId: 42 });
    expect(await error).toMatchObject({ event: liveEvents.watch, code: 'validation_failed' });
    expect(await ask(k, liveEvents.publish, { roomId: 'r', offer: { type: 'offer' } })).toMatchObject({
      ok: false,
      code: 'validation_failed',
    });
    expect((await http(person(), 'GET', '/live/nope')).status).toBe(404);
  });
});

describe('watching', () => {
  it('counts viewers as they join and leave, and their media flows', async () => {
    const { stream, socket: ks, caster } = await liveNow();
    const stop = caster.send(300_000);
    const counts: number[] = [];
    ks.on(liveEvents.viewers, (v: { viewers: number }) => counts.push(v.viewers));
    const a = await viewerOf(stream.roomId);
    if (!a.answer.ok) throw new Error(a.answer.message);
    expect(a.answer.viewers).toBe(1);
    const peer = nodeViewer(stun.url);
    await ask(a.socket, liveEvents.answer, { roomId: stream.roomId, answer: await peer.answer(a.answer.offer!) });
    await peer.connected;
    const b = await viewerOf(stream.roomId);
    expect(b.answer.ok && b.answer.viewers).toBe(2);
    expect((await http(person(), 'GET', `/live/${stream.roomId}`)).body.viewers).toBe(2);
    await ask(b.socket, liveEvents.leave, { roomId: stream.roomId });
    const end = Date.now() + 5000;
    while ((peer.received < 20 || counts.length < 3) && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
    expect(peer.received).toBeGreaterThanOrEqual(20);
    expect(counts).toEqual([1, 2, 1]);
    stop();
    await Promise.all([peer.close(), caster.close()]);
  });

  it('ending the stream tells viewers, frees the owner to go live again and keeps when it ran', async () => {
    const { stream, owner, caster } = await liveNow();
    const a = await viewerOf(stream.roomId);
    const ended = next<{ roomId: string; startedAt: number; endedAt: number }>(a.socket, liveEvents.ended);
    const res = await http(owner, 'POST', `/live/${stream.roomId}/end`);
    expect(res.status).toBe(200);
    expect((await ended).roomId).toBe(stream.roomId);
    const after = await http(person(), 'GET', `/live/${stream.roomId}`);
    expect(after.body.endedAt).toEqual(expect.any(Number));
    expect((await http(person(), 'GET', '/live')).body.streams).not.toContainEqual(expect.objectContaining({ roomId: stream.roomId }));
    // The owner may go live again.
    expect((await http(owner, 'POST', '/live', { title: 'Again', category: 'Other' })).status).toBe(201);
    const watchEnded = await ask<LiveWatchAnswer>(a.socket, liveEvents.watch, { roomId: stream.roomId });
    expect(watchEnded).toMatchObject({ ok: false, code: 'stream_not_found' });
    await caster.close();
  });

  it('a broadcaster who reconnects keeps their stream and its chat', async () => {
    const { stream, owner, socket, caster } = await liveNow();
    const a = await viewerOf(stream.roomId);
    socket.disconnect();
    const back = await t.open(owner);
    await new Promise((r) => setTimeout(r, 100));
    expect((await joinChat(back, stream.roomId)).ok).toBe(true);
    await joinChat(a.socket, stream.roomId);
    const heard = next<RoomMessage>(back, roomEvents.message);
    await post(a.socket, stream.roomId, 'still there?');
    expect((await heard).text).toBe('still there?');
    expect((await http(owner, 'GET', `/live/${stream.roomId}`)).body.endedAt).toBeUndefined();
    await caster.close();
  });
});

describe('live chat', () => {
  it('is a room: messages with ids, catch-up, resend once, and the broadcaster and their moderators moderate', async () => {
    const { stream, owner, socket: ks, caster } = await liveNow();
    const roomId = stream.roomId;
    const spammer = await viewerOf(roomId, await rig.account('spam'));
    const mod = await viewerOf(roomId, await rig.account('mod'));
    const moderate = (s: Socket, m: Record<string, unknown>) => ask(s, roomEvents.moderate, { roomId, ...m });
    for (const s of [ks, spammer.socket, mod.socket]) expect((await joinChat(s, roomId)).ok).toBe(true);
    const heard = next<RoomMessage>(mod.socket, roomEvents.message);
    const sent = await post(spammer.socket, roomId, 'buy my stuff', 'spam-1');
    if (!sent.ok) throw new Error(sent.message);
    expect(await heard).toMatchObject({ id: sent.message.id, text: 'buy my stuff', senderId: spammer.user.userId, clientId: 'spam-1' });
    // A resend after a lost acknowledgement is the same message, not a second one.
    const again = await post(spammer.socket, roomId, 'buy my stuff', 'spam-1');
    expect(again.ok && again.message.id).toBe(sent.message.id);

    // A stream's messages stay as sent: an edit (rewriting what a report would read) or a reaction is refused.
    expect(await ask(spammer.socket, roomEvents.edit, { roomId, id: sent.message.id, text: 'nice pasta' })).toMatchObject({
      ok: false,
      code: 'not_allowed',
    });
    expect(await ask(mod.socket, roomEvents.react, { roomId, id: sent.message.id, emoji: '👍', on: true })).toMatchObject({
      ok: false,
      code: 'not_allowed',
    });

    // A viewer cannot moderate: IDOR on delete, mute and moderator appointment.
    expect(await ask(mod.socket, roomEvents.delete, { roomId, id: sent.message.id })).toMatchObject({ ok: false, code: 'not_author' });
    expect(await moderate(mod.socket, { action: 'mute', userId: spammer.user.userId, minutes: 5 })).toMatchObject({
      ok: false,
      code: 'not_moderator',
    });
    expect(await moderate(mod.socket, { action: 'appoint', userId: mod.user.userId })).toMatchObject({ ok: false, code: 'not_moderator' });

    // The broadcaster appoints a moderator (the chat's people say so), who deletes the message and mutes the spammer.
    const people = next<{ people: Array<{ userId: string; role: string }> }>(mod.socket, roomEvents.people, (p) =>
      p.people.some((x) => x.userId === mod.user.userId),
    );
    expect(await moderate(ks, { action: 'appoint', userId: mod.user.userId })).toMatchObject({ ok: true });
    // Named in the chat's people (not blank).
    expect((await people).people.find((x) => x.userId === mod.user.userId)).toMatchObject({
      role: 'moderator',
      username: mod.user.username,
    });
    const deleted = next<RoomMessage>(spammer.socket, roomEvents.changed);
    expect(await ask(mod.socket, roomEvents.delete, { roomId, id: sent.message.id })).toMatchObject({ ok: true });
    expect(await deleted).toMatchObject({ id: sent.message.id, deleted: true, text: '' });
    const mutedNote = next<{ roomId: string; mutedUntil: number }>(spammer.socket, roomEvents.muted);
    expect(await moderate(mod.socket, { action: 'mute', userId: spammer.user.userId, minutes: 10 })).toMatchObject({ ok: true });
    const { mutedUntil } = await mutedNote;
    expect(mutedUntil - Date.now()).toBeGreaterThan(9 * 60_000);
    expect(mutedUntil - Date.now()).toBeLessThan(11 * 60_000);
    const refused = await post(spammer.socket, roomId, 'again');
    expect(refused).toMatchObject({ ok: false, code: 'muted' });
    expect(!refused.ok && refused.retryAfterS).toBeGreaterThan(9 * 60);
    // A moderator cannot act against the broadcaster, appoint, or do what a stream does not have; bad payloads are refused.
    expect(await moderate(mod.socket, { action: 'mute', userId: owner.userId, minutes: 5 })).toMatchObject({
      ok: false,
      code: 'outranked',
    });
    expect(await moderate(mod.socket, { action: 'ban', userId: owner.userId })).toMatchObject({ ok: false, code: 'outranked' });
    expect(await moderate(mod.socket, { action: 'dismiss', userId: mod.user.userId })).toMatchObject({ ok: false, code: 'not_owner' });
    expect(await moderate(ks, { action: 'kick', userId: spammer.user.userId })).toMatchObject({ ok: false, code: 'not_allowed' });
    expect(await moderate(ks, { action: 'close' })).toMatchObject({ ok: false, code: 'not_allowed' });
    for (const bad of [
      { action: 'mute', userId: 'nope', minutes: 5 },
      { action: 'mute', userId: spammer.user.userId, minutes: -1 },
      { action: 'explode' },
      null,
    ])
      expect(await ask(ks, roomEvents.moderate, bad === null ? { roomId } : { roomId, ...bad })).toMatchObject({
        ok: false,
        code: 'validation_failed',
      });
    expect(await ask(ks, roomEvents.moderate, 'junk')).toMatchObject({ ok: false, code: 'validation_failed' });
    expect(await moderate(ks, { action: 'mute', userId: '00000000-0000-4000-8000-000000000000', minutes: 5 })).toMatchObject({
      ok: false,
      code: 'unknown_user',
    });

    // A late viewer catches up without the deleted message; one back from a drop gets only what it missed.
    const late = await viewerOf(roomId);
    expect(texts(await joinChat(late.socket, roomId))).toEqual([]);
    const welcome = await post(ks, roomId, 'welcome');
    const later = await viewerOf(roomId);
    expect(texts(await joinChat(later.socket, roomId))).toEqual(['welcome']);
    await post(ks, roomId, 'second');
    expect(texts(await joinChat(later.socket, roomId, welcome.ok ? welcome.message.id : 0))).toEqual(['second']);

    // A ban drops the viewer, takes their messages and keeps them out.
    const banned = next(spammer.socket, liveEvents.dropped);
    const removed = next(spammer.socket, roomEvents.removed);
    expect(await moderate(ks, { action: 'ban', userId: spammer.user.userId })).toMatchObject({ ok: true });
    await banned;
    expect(await removed).toMatchObject({ roomId, reason: 'banned' });
    expect(await ask(spammer.socket, liveEvents.watch, { roomId })).toMatchObject({ ok: false, code: 'banned' });
    expect(await joinChat(spammer.socket, roomId)).toMatchObject({ ok: false, code: 'banned' });
    await caster.close();
  });

  it('keeps a channel’s moderators and bans from one stream to the next, and gives them no say in anyone else’s', async () => {
    const first = await liveNow('First');
    const other = await liveNow('Other');
    const [mod, troll] = [await rig.account('mod'), await rig.account('troll')];
    const modSocket = await t.open(mod);
    const moderate = (s: Socket, roomId: string, m: Record<string, unknown>) => ask(s, roomEvents.moderate, { roomId, ...m });
    expect(await moderate(first.socket, first.stream.roomId, { action: 'appoint', userId: mod.userId })).toMatchObject({ ok: true });
    expect(await moderate(modSocket, first.stream.roomId, { action: 'ban', userId: troll.userId, reason: 'spam' })).toMatchObject({
      ok: true,
    });
    // A moderator of one stream is nobody in another's, and a room that is no stream or group is nothing to moderate.
    expect(await moderate(modSocket, other.stream.roomId, { action: 'mute', userId: troll.userId, minutes: 5 })).toMatchObject({
      ok: false,
      code: 'not_moderator',
    });
    expect(await moderate(modSocket, randomUUID(), { action: 'ban', userId: troll.userId })).toMatchObject({
      ok: false,
      code: 'unknown_room',
    });
    expect(await moderate(first.socket, first.stream.roomId, { action: 'appoint', userId: first.owner.userId })).toMatchObject({
      ok: false,
      code: 'not_member',
    });

    expect((await http(first.owner, 'POST', `/live/${first.stream.roomId}/end`)).status).toBe(200);
    const again = await liveNow('Second', first.owner);
    const roomId = again.stream.roomId;
    // Banned from the channel: kept out of the next stream too.
    expect((await viewerOf(roomId, troll)).answer).toMatchObject({ ok: false, code: 'banned' });
    // Still a moderator there, named in the chat's people; they lift the ban.
    const modView = await viewerOf(roomId, mod);
    const joined = await joinChat(modView.socket, roomId);
    expect(joined.ok && joined.people.find((p) => p.userId === mod.userId)).toMatchObject({ role: 'moderator', username: mod.username });
    expect(await moderate(modView.socket, roomId, { action: 'unban', userId: troll.userId })).toMatchObject({ ok: true });
    expect((await viewerOf(roomId, troll)).answer.ok).toBe(true);
    // The broadcaster dismisses them: no longer a moderator, in this stream or the next.
    expect(await moderate(again.socket, roomId, { action: 'dismiss', userId: mod.userId })).toMatchObject({ ok: true });
    expect(await moderate(modView.socket, roomId, { action: 'mute', userId: troll.userId, minutes: 5 })).toMatchObject({
      ok: false,
      code: 'not_moderator',
    });
    // Every action is on the channel's record, across both streams.
    const recorded = await t
      .server()
      .deps.db.execute(
        sql`select l.action from room_moderation_log l join stored_rooms r on r.id = l.room_id where r.channel_of = ${first.owner.userId} order by l.created_at`,
      );
    expect((recorded as unknown as { rows: Array<{ action: string }> }).rows.map((r) => r.action)).toEqual([
      'appoint',
      'ban',
      'unban',
      'dismiss',
    ]);
    await Promise.all([first.caster.close(), other.caster.close(), again.caster.close()]);
  });

  it('can be watched for its chat alone: a viewer counted, no peer connection, the chat open', async () => {
    const { stream, socket: ks, caster } = await liveNow();
    const roomId = stream.roomId;
    const reader = await t.open(person());
    const counted = next<{ viewers: number }>(ks, liveEvents.viewers, (v) => v.viewers === 1);
    const peersBefore = t.server().liveStats().openPeers;
    expect(await ask(reader, liveEvents.watch, { roomId, media: false })).toEqual({ ok: true, offer: null, viewers: 1 });
    await counted;
    expect(t.server().liveStats().openPeers).toBe(peersBefore);
    expect((await joinChat(ks, roomId)).ok).toBe(true);
    expect((await joinChat(reader, roomId)).ok).toBe(true);
    const heard = next<RoomMessage>(ks, roomEvents.message);
    expect((await post(reader, roomId, 'reading along')).ok).toBe(true);
    expect((await heard).text).toBe('reading along');
    expect(await ask(reader, liveEvents.watch, { roomId, media: 'no' })).toMatchObject({ ok: false, code: 'validation_failed' });
    await caster.close();
  });

  it('limits each user’s messages, and refuses chat from someone not watching', async () => {
    const { stream, caster } = await liveNow();
    const v = await viewerOf(stream.roomId);
    await joinChat(v.socket, stream.roomId);
    let refused: PostAnswer | undefined;
    for (let i = 0; i < 20 && !refused; i++) {
      const a = await post(v.socket, stream.roomId, `m${i}`);
      if (!a.ok) refused = a;
    }
    expect(refused).toMatchObject({ ok: false, code: 'rate_limited' });
    const outsider = await t.open(person());
    expect(await post(outsider, stream.roomId, 'hi')).toMatchObject({ ok: false, code: 'not_watching' });
    expect(await joinChat(outsider, stream.roomId)).toMatchObject({ ok: false, code: 'not_watching' });
    expect(await silent(outsider, roomEvents.message)).toBe(true);
    await caster.close();
  });
});

describe('a stream’s moderation, record and summary', () => {
  it('lifts mutes and bans and sets slow mode through the rooms’ moderation, from any of the user’s sockets, for the stream’s moderators only', async () => {
    const a = await liveNow('A');
    const b = await liveNow('B');
    const [mod, troll] = [await rig.account('mod'), await rig.account('troll')];
    const moderate = (s: Socket, roomId: string, m: Record<string, unknown>) => ask(s, roomEvents.moderate, { roomId, ...m });
    const roomId = a.stream.roomId;
    // The broadcaster's second page (not the socket that publishes) moderates as the broadcaster.
    const secondTab = await t.open(a.owner);
    expect(await moderate(secondTab, roomId, { action: 'appoint', userId: mod.userId })).toMatchObject({ ok: true });
    const modView = await viewerOf(roomId, mod);
    const trollView = await viewerOf(roomId, troll);
    // What one moderator does, every page of the others (and their own) hears at once; a viewer hears nothing.
    const told = (s: Socket) => next<RestrictionsChanged>(s, roomEvents.restrictions, (r) => r.roomId === roomId);
    const trollTold = silent(trollView.socket, roomEvents.restrictions, 1500);
    const [ownerTold, secondTabTold, modTold] = [told(a.socket), told(secondTab), told(modView.socket)];
    expect(await moderate(modView.socket, roomId, { action: 'mute', userId: troll.userId, minutes: 10 })).toMatchObject({ ok: true });
    await Promise.all([ownerTold, secondTabTold, modTold]);
    expect(await trollTold).toBe(true);
    const slowTold = told(modView.socket);
    expect(await moderate(a.socket, roomId, { action: 'slowMode', seconds: 30 })).toMatchObject({ ok: true });
    await slowTold;

    // The list the live page shows: for the broadcaster and moderators, nobody else.
    const listed = await http(mod, 'GET', `/live/${roomId}/restrictions`);
    expect(listed.status).toBe(200);
    expect(listed.body).toMatchObject({ slowModeS: 30, muted: [{ userId: troll.userId, username: troll.username }], banned: [] });
    expect((await http(troll, 'GET', `/live/${roomId}/restrictions`)).status).toBe(403);
    // A moderator of stream A is nobody in stream B: no list, no unmute, no slow mode.
    expect((await http(mod, 'GET', `/live/${b.stream.roomId}/restrictions`)).status).toBe(403);
    expect(await moderate(modView.socket, b.stream.roomId, { action: 'slowMode', seconds: 0 })).toMatchObject({
      ok: false,
      code: 'not_moderator',
    });
    expect(await moderate(modView.socket, b.stream.roomId, { action: 'unban', userId: troll.userId })).toMatchObject({
      ok: false,
      code: 'not_moderator',
    });
    // A viewer cannot lift their own mute, nor on another socket of theirs.
    const trollTab = await t.open(troll);
    for (const s of [trollView.socket, trollTab])
      expect(await moderate(s, roomId, { action: 'unmute', userId: troll.userId })).toMatchObject({ ok: false, code: 'not_moderator' });
    // Slow mode within the rooms' limits.
    expect(await moderate(a.socket, roomId, { action: 'slowMode', seconds: 3601 })).toMatchObject({ ok: false, code: 'validation_failed' });

    expect(await moderate(modView.socket, roomId, { action: 'unmute', userId: troll.userId })).toMatchObject({ ok: true });
    const banTold = told(modView.socket);
    expect(await moderate(secondTab, roomId, { action: 'ban', userId: troll.userId, reason: 'spam' })).toMatchObject({ ok: true });
    await banTold;
    expect((await http(a.owner, 'GET', `/live/${roomId}/restrictions`)).body).toMatchObject({
      muted: [],
      banned: [{ userId: troll.userId, reason: 'spam' }],
    });
    expect(await moderate(modView.socket, roomId, { action: 'unban', userId: troll.userId })).toMatchObject({ ok: true });
    expect(await moderate(secondTab, roomId, { action: 'slowMode', seconds: 0 })).toMatchObject({ ok: true });
    expect((await http(a.owner, 'GET', `/live/${roomId}/restrictions`)).body).toEqual({ slowModeS: 0, muted: [], banned: [] });
    expect((await viewerOf(roomId, troll)).answer.ok).toBe(true);
    await Promise.all([a.caster.close(), b.caster.close()]);
  });

  it('holds back a viewer who posted just before slow mode was turned on, as a group does', async () => {
    const { stream, socket: ks, caster } = await liveNow('Slow');
    const roomId = stream.roomId;
    const fanView = await viewerOf(roomId, await rig.account('hasty'));
    for (const s of [ks, fanView.socket]) expect((await joinChat(s, roomId)).ok).toBe(true);
    expect((await post(fanView.socket, roomId, 'one')).ok).toBe(true);
    expect(await ask(ks, roomEvents.moderate, { roomId, action: 'slowMode', seconds: 30 })).toMatchObject({ ok: true });
    expect(await post(fanView.socket, roomId, 'two')).toMatchObject({ ok: false, code: 'slow_mode' });
    // The broadcaster is not held back.
    expect((await post(ks, roomId, 'from the host')).ok).toBe(true);
    await caster.close();
  });

  it('keeps a record of the stream’s chat for its broadcaster and admins, and a summary of what the server counted', async () => {
    const { stream, owner, socket: ks, caster } = await liveNow('Recorded');
    const roomId = stream.roomId;
    const [fan, troll, other] = [await rig.account('fan'), await rig.account('troll'), await rig.account('other')];
    const fanView = await viewerOf(roomId, fan);
    const trollView = await viewerOf(roomId, troll);
    for (const s of [ks, fanView.socket, trollView.socket]) expect((await joinChat(s, roomId)).ok).toBe(true);
    await post(fanView.socket, roomId, 'hello');
    await post(fanView.socket, roomId, 'hello', 'same-twice');
    await post(fanView.socket, roomId, 'hello', 'same-twice');
    const bad = await post(trollView.socket, roomId, 'rude words');
    if (!bad.ok) throw new Error(bad.message);
    const moderate = (m: Record<string, unknown>) => ask(ks, roomEvents.moderate, { roomId, ...m });
    expect(await moderate({ action: 'removeMessage', messageId: bad.message.id })).toMatchObject({ ok: true });
    expect(await moderate({ action: 'mute', userId: troll.userId, minutes: 10 })).toMatchObject({ ok: true });
    expect(await moderate({ action: 'slowMode', seconds: 10 })).toMatchObject({ ok: true });
    expect(await moderate({ action: 'slowMode', seconds: 0 })).toMatchObject({ ok: true });
    const reported = await http(fan, 'POST', '/reports', {
      reportedUserId: troll.userId,
      context: 'live',
      roomId,
      reason: 'harassment',
      block: false,
    });
    expect(reported.status, JSON.stringify(reported.body)).toBe(201);
    // A follow made while it runs is a new follower; gold given is a gift.
    expect((await http(fan, 'PUT', `/live/follows/${owner.userId}`)).status).toBe(200);
    await t
      .server()
      .deps.db.execute(sql`insert into wallets (user_id, gold) values (${fan.userId}, 100) on conflict (user_id) do update set gold = 100`);
    const key = randomUUID();
    expect(await ask(fanView.socket, liveEvents.gift, { roomId, amount: 10, idempotencyKey: key })).toMatchObject({ ok: true, gold: 90 });
    expect(await ask(fanView.socket, liveEvents.gift, { roomId, amount: 10, idempotencyKey: key })).toMatchObject({ ok: true, gold: 90 });

    // While live: the record is the broadcaster's; the summary waits for the end.
    const live = await http(owner, 'GET', `/live/${roomId}/record`);
    expect(live.status).toBe(200);
    expect((await http(owner, 'GET', `/live/${roomId}/summary`)).body).toMatchObject({ code: 'still_live' });
    await viewerOf(roomId, other);
    expect((await http(owner, 'POST', `/live/${roomId}/end`)).status).toBe(200);

    const record = await http(owner, 'GET', `/live/${roomId}/record`);
    expect(record.status).toBe(200);
    const entries = record.body.entries as Array<Record<string, unknown>>;
    expect(entries.map((e) => (e.kind === 'report' ? 'report' : e.action))).toEqual([
      'report',
      'slowMode',
      'slowMode',
      'mute',
      'removeMessage',
    ]);
    expect(entries[3]).toMatchObject({ actor: owner.username, target: troll.username, detail: '10 min' });
    // The broadcaster reads what was reported, not who reported it.
    expect(entries[0]).toMatchObject({ kind: 'report', reporter: null, target: troll.username, reason: 'harassment' });
    // Nobody else's, not even a viewer of it or a moderator of another stream; an admin's too, with the reporter.
    for (const u of [fan, troll, other]) {
      expect((await http(u, 'GET', `/live/${roomId}/record`)).status).toBe(403);
      expect((await http(u, 'GET', `/live/${roomId}/summary`)).status).toBe(403);
    }
    expect((await http(owner, 'GET', `/live/${randomUUID()}/record`)).status).toBe(404);
    expect((await http(owner, 'GET', '/live/x/record')).status).toBe(404);
    await t.server().deps.db.execute(sql`update users set role = 'admin' where id = ${other.userId}`);
    const seen = await http(other, 'GET', `/live/${roomId}/record`);
    expect((seen.body.entries as Array<Record<string, unknown>>)[0]).toMatchObject({ reporter: fan.username });

    const summary = await http(owner, 'GET', `/live/${roomId}/summary`);
    expect(summary.status).toBe(200);
    expect(summary.body).toMatchObject({ roomId, peakViewers: 3, totalViewers: 3, messages: 3, gifts: 1, gold: 10, newFollowers: 1 });
    expect(summary.body.endedAt as number).toBeGreaterThanOrEqual(summary.body.startedAt as number);
    await caster.close();
  });
});
