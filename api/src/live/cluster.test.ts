import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import type { TokenUser } from '@parley/contract/auth';
import { liveEvents, type LiveAck, type LivePublishAnswer, type LiveStream, type LiveWatchAnswer } from '@parley/contract/live';
import { roomEvents, type JoinAnswer, type PostAnswer, type RoomMessage } from '@parley/contract/rooms';
import { next, person, socketClients } from '../testing/socketClients.ts';
import { insertAccount, tokenUserOf } from '../db/accounts.ts';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { createCluster } from '../realtime/cluster.ts';
import { createRedis, closeRedis } from '../platform/redis.ts';
import { redisStreamDirectory } from './directory.ts';
import { startLocalStun } from './localStun.ts';
import { connectedWithin, nodeBroadcaster, nodeViewer } from './nodePeers.ts';

const ask = <A>(s: Socket, event: string, payload: unknown, ms = 10_000) => s.timeout(ms).emitWithAck(event, payload) as Promise<A>;
const until = async (done: () => boolean, ms = 8000) => {
  const end = Date.now() + ms;
  while (!done() && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
  return done();
};

/** Waits for a peer connection (ICE on a busy machine takes seconds); a failure names its state. */
async function connectedIn(peer: { connected: Promise<void>; readonly state: string }, what: string, ms = 30_000) {
  if (!(await connectedWithin(peer, ms))) throw new Error(`the ${what} did not connect in ${ms / 1000} s (${peer.state})`);
}

/** Two API processes of one deployment: the same Redis, key prefix and signing secret. */
describe.skipIf(!process.env.REDIS_URL)('live streams across two API processes (Redis)', { timeout: 120_000 }, () => {
  const shared = { JWT_SECRET: randomBytes(32).toString('hex'), REDIS_KEY_PREFIX: `test${randomBytes(6).toString('hex')}:` };
  let one: TestServer;
  let two: TestServer;
  let stun: Awaited<ReturnType<typeof startLocalStun>>;
  const on1 = socketClients(() => one);
  const on2 = socketClients(() => two);
  beforeAll(async () => {
    [one, two, stun] = await Promise.all([startTestServer(shared), startTestServer(shared), startLocalStun()]);
  });
  afterEach(() => {
    on1.closeAll();
    on2.closeAll();
  });
  afterAll(() => Promise.all([one.close(), two.close(), stun.close()]));

  /** A real account in the database of `server` (a channel's moderation refers to its people). */
  let n = 0;
  const account = async (server: TestServer) =>
    tokenUserOf(
      await insertAccount(server.deps.db, {
        username: `c${randomBytes(4).toString('hex')}${n++}`,
        age: 30,
        gender: 'female',
        isVerified: true,
      }),
    );

  /** A user live on `server`, their node broadcaster publishing to it. */
  async function liveOn(server: TestServer, open: (u: TokenUser) => Promise<Socket>, broadcaster?: TokenUser) {
    const owner = broadcaster ?? (await account(server));
    const token = await server.deps.tokens.sign(owner);
    const made = await server.api('/api/live', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      json: { title: 'Across processes', category: 'Music' },
    });
    expect(made.status).toBe(201);
    const stream = (await made.json()) as LiveStream;
    const socket = await open(owner);
    const caster = nodeBroadcaster(stun.url);
    const published = await ask<LivePublishAnswer>(socket, liveEvents.publish, { roomId: stream.roomId, offer: await caster.offer() });
    if (!published.ok) throw new Error(published.message);
    await caster.accept(published.answer);
    return { owner, roomId: stream.roomId, socket, caster };
  }

  async function watch(open: (u: TokenUser) => Promise<Socket>, roomId: string, user = person()) {
    const socket = await open(user);
    const answer = await ask<LiveWatchAnswer>(socket, liveEvents.watch, { roomId });
    return { user, socket, answer };
  }

  it('a viewer on the other process watches, gets the media, chats, is moderated, leaves, and hears the end', async () => {
    const { owner, roomId, socket: ks, caster } = await liveOn(one, on1.open);
    const stop = caster.send(300_000);
    const here = await watch(on1.open, roomId);
    const hereCounts: number[] = [];
    here.socket.on(liveEvents.viewers, (v: { viewers: number }) => hereCounts.push(v.viewers));

    // Watching through process two: the offer comes from the SFU on process one, and media flows.
    const there = await watch(on2.open, roomId, await account(one));
    if (!there.answer.ok) throw new Error(there.answer.message);
    expect(there.answer.viewers).toBe(2);
    const peer = nodeViewer(stun.url);
    expect(await ask<LiveAck>(there.socket, liveEvents.answer, { roomId, answer: await peer.answer(there.answer.offer!) })).toEqual({
      ok: true,
    });
    await connectedIn(caster, 'broadcaster');
    await connectedIn(peer, 'viewer');
    expect(await until(() => peer.received >= 20, 20_000)).toBe(true);
    expect(await until(() => hereCounts.includes(2))).toBe(true);

    // The chat is a room: every page joins it, a page on two through the process holding the stream.
    for (const s of [ks, here.socket, there.socket]) expect((await ask<JoinAnswer>(s, roomEvents.join, { roomId })).ok).toBe(true);
    // Chat both ways: the message of the viewer on two reaches the viewer and the broadcaster on one.
    const heardHere = next<RoomMessage>(here.socket, roomEvents.message);
    const heardByOwner = next<RoomMessage>(ks, roomEvents.message);
    const sent = await ask<PostAnswer>(there.socket, roomEvents.post, { roomId, clientId: 'two-1', text: 'hello from two' });
    if (!sent.ok) throw new Error(sent.message);
    // The sender is who process two authenticated.
    expect(await heardHere).toMatchObject({ id: sent.message.id, text: 'hello from two', senderId: there.user.userId });
    expect((await heardByOwner).id).toBe(sent.message.id);
    const heardThere = next<RoomMessage>(there.socket, roomEvents.message, (m) => m.text === 'hello from one');
    await ask(here.socket, roomEvents.post, { roomId, clientId: 'one-1', text: 'hello from one' });
    expect((await heardThere).text).toBe('hello from one');
    // A page on two catching up after a drop gets what came after its last id, through the holder.
    expect(await ask<JoinAnswer>(there.socket, roomEvents.join, { roomId, after: sent.message.id })).toMatchObject({
      ok: true,
      messages: [{ text: 'hello from one' }],
    });

    // Moderated from process one: the message deleted, the viewer on two muted and told so.
    const deleted = next<RoomMessage>(there.socket, roomEvents.changed);
    expect(await ask(ks, roomEvents.delete, { roomId, id: sent.message.id })).toEqual({ ok: true });
    expect(await deleted).toMatchObject({ id: sent.message.id, deleted: true });
    const muted = next<{ mutedUntil: number | null }>(there.socket, roomEvents.muted);
    expect(await ask(ks, roomEvents.moderate, { roomId, action: 'mute', userId: there.user.userId, minutes: 5 })).toEqual({ ok: true });
    expect((await muted).mutedUntil).toBeGreaterThan(Date.now());
    expect(await ask(there.socket, roomEvents.post, { roomId, clientId: 'two-2', text: 'spam' })).toMatchObject({
      ok: false,
      code: 'muted',
    });

    // Leaving through two: the count drops on one.
    const dropped = next<{ viewers: number }>(here.socket, liveEvents.viewers, (v) => v.viewers === 1);
    expect(await ask(there.socket, liveEvents.leave, { roomId })).toEqual({ ok: true });
    await dropped;
    await peer.close();

    // A viewer on two who disconnects is removed on one.
    const late = await watch(on2.open, roomId);
    expect(late.answer.ok && late.answer.viewers).toBe(2);
    const gone = next<{ viewers: number }>(here.socket, liveEvents.viewers, (v) => v.viewers === 1);
    late.socket.disconnect();
    await gone;
    const card = (await (
      await one.api(`/api/live/${roomId}`, { headers: { authorization: `Bearer ${await one.deps.tokens.sign(owner)}` } })
    ).json()) as LiveStream;
    expect(card.viewers).toBe(1);

    // A ban from one drops the viewer on two and keeps them out.
    const banned = await watch(on2.open, roomId, await account(one));
    const banNote = next(banned.socket, liveEvents.dropped);
    expect(await ask(ks, roomEvents.moderate, { roomId, action: 'ban', userId: banned.user.userId })).toEqual({ ok: true });
    expect(await banNote).toEqual({ roomId });
    expect(await ask(banned.socket, liveEvents.watch, { roomId })).toMatchObject({ ok: false, code: 'banned' });

    // The end reaches viewers on both processes.
    const again = await watch(on2.open, roomId);
    const endedThere = next<{ roomId: string }>(again.socket, liveEvents.ended);
    const endedHere = next<{ roomId: string }>(here.socket, liveEvents.ended);
    expect(await ask(ks, liveEvents.end, { roomId })).toEqual({ ok: true });
    expect((await endedThere).roomId).toBe(roomId);
    expect((await endedHere).roomId).toBe(roomId);
    expect(await ask(again.socket, liveEvents.watch, { roomId })).toMatchObject({ ok: false, code: 'stream_not_found' });
    stop();
    await caster.close();
  });

  it('a broadcaster whose socket is on another process than the stream publishes, keeps it through a reconnection and ends it', async () => {
    const owner = await account(one);
    // The stream is made by an HTTP request that reached process one; the broadcaster's socket is on two.
    const token = await one.deps.tokens.sign(owner);
    const made = await one.api('/api/live', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      json: { title: 'Split', category: 'Art' },
    });
    const { roomId } = (await made.json()) as LiveStream;
    const ks = await on2.open(owner);
    const caster = nodeBroadcaster(stun.url);
    const published = await ask<LivePublishAnswer>(ks, liveEvents.publish, { roomId, offer: await caster.offer() });
    if (!published.ok) throw new Error(published.message);
    await caster.accept(published.answer);
    const stop = caster.send(300_000);
    const viewer = await watch(on1.open, roomId);
    if (!viewer.answer.ok) throw new Error(viewer.answer.message);
    const peer = nodeViewer(stun.url);
    await ask(viewer.socket, liveEvents.answer, { roomId, answer: await peer.answer(viewer.answer.offer!) });
    await connectedIn(caster, 'broadcaster');
    await connectedIn(peer, 'viewer');
    expect(await until(() => peer.received >= 20, 20_000)).toBe(true);
    // Someone else on two cannot publish to it.
    const intruder = await on2.open(person());
    expect(await ask(intruder, liveEvents.publish, { roomId, offer: await nodeBroadcaster(stun.url).offer() })).toMatchObject({
      ok: false,
      code: 'not_broadcaster',
    });
    // The broadcaster's page reconnects (on two): it owns the stream again (hears its chat, may end it).
    ks.disconnect();
    const back = await on2.open(owner);
    await new Promise((r) => setTimeout(r, 300));
    expect((await ask<JoinAnswer>(back, roomEvents.join, { roomId })).ok).toBe(true);
    await ask(viewer.socket, roomEvents.join, { roomId });
    const heard = next<RoomMessage>(back, roomEvents.message);
    await ask(viewer.socket, roomEvents.post, { roomId, clientId: 'v-1', text: 'still live?' });
    expect((await heard).text).toBe('still live?');
    const ended = next<{ roomId: string }>(viewer.socket, liveEvents.ended);
    expect(await ask(back, liveEvents.end, { roomId })).toEqual({ ok: true });
    expect((await ended).roomId).toBe(roomId);
    stop();
    await Promise.all([peer.close(), caster.close()]);
  });

  it('a forwarded event acts as the user who sent it, never as the one its payload names', async () => {
    const { owner, roomId, caster } = await liveOn(one, on1.open);
    const viewer = await watch(on2.open, roomId);
    const other = await watch(on1.open, roomId);
    // The broadcaster's own powers, asked for from process two by a viewer.
    expect(await ask(viewer.socket, liveEvents.end, { roomId, userId: owner.userId })).toMatchObject({
      ok: false,
      code: 'not_broadcaster',
    });
    for (const m of [
      { action: 'appoint', userId: viewer.user.userId },
      { action: 'mute', userId: other.user.userId, minutes: 5 },
      { action: 'ban', userId: other.user.userId },
    ])
      expect(await ask(viewer.socket, roomEvents.moderate, { roomId, ...m })).toMatchObject({ ok: false, code: 'not_moderator' });
    // Someone on two who does not watch cannot chat or answer for another viewer.
    const outsider = await on2.open(person());
    expect(await ask(outsider, roomEvents.post, { roomId, clientId: 'x', text: 'hi' })).toMatchObject({ ok: false });
    const sdp = { type: 'answer', sdp: 'v=0' };
    expect(await ask(outsider, liveEvents.answer, { roomId, answer: sdp })).toMatchObject({ ok: false, code: 'not_watching' });
    // Invalid payloads are refused on the receiving process, with the contract's message.
    expect(await ask(viewer.socket, roomEvents.post, { roomId, clientId: 'v', text: '' })).toMatchObject({
      ok: false,
      code: 'validation_failed',
    });
    const card = (await (
      await one.api(`/api/live/${roomId}`, { headers: { authorization: `Bearer ${await one.deps.tokens.sign(owner)}` } })
    ).json()) as LiveStream;
    expect(card).toMatchObject({ viewers: 2, broadcaster: { userId: owner.userId } });
    expect(card.endedAt).toBeUndefined();
    await caster.close();
  });

  it('a holder that does not answer is a clear timeout; one that died ends the stream for its viewers', async () => {
    // A process of the deployment that is alive (its heartbeat runs) but does not hold the stream it lists.
    const redis = createRedis(process.env.REDIS_URL!);
    const silent = await createCluster(redis, shared.REDIS_KEY_PREFIX, () => undefined);
    const directory = redisStreamDirectory(redis, shared.REDIS_KEY_PREFIX);
    const roomId = randomUUID();
    const broadcaster = { userId: randomUUID(), username: 'ghost', avatar: '' };
    await directory.put({
      roomId,
      title: 'Ghost',
      category: 'Other',
      broadcaster,
      viewers: 0,
      startedAt: Date.now(),
      hasThumbnail: false,
      node: silent.instanceId,
    });
    try {
      const viewer = await on2.open(person());
      const timedOut = await ask(viewer, liveEvents.watch, { roomId }, 15_000);
      expect(timedOut).toMatchObject({ ok: false, code: 'timeout', message: 'The stream did not answer in time. Try again.' });
    } finally {
      await silent.close();
      await closeRedis(redis);
    }

    // A stream whose process dies: its viewers on another process are told it ended.
    const three = await startTestServer(shared);
    const on3 = socketClients(() => three);
    try {
      const { roomId: held, caster } = await liveOn(three, on3.open);
      const viewer = await watch(on2.open, held);
      expect(viewer.answer.ok).toBe(true);
      const ended = next<{ roomId: string }>(viewer.socket, liveEvents.ended, () => true, 8000);
      on3.closeAll();
      await caster.close();
      await three.close();
      expect((await ended).roomId).toBe(held);
      expect(await ask(viewer.socket, liveEvents.watch, { roomId: held })).toMatchObject({ ok: false, code: 'stream_not_found' });
    } finally {
      on3.closeAll();
    }
  }, 30_000);
});
