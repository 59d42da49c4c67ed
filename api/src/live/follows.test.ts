import { randomUUID } from 'node:crypto';
import { roomEvents, type JoinAnswer, type RoomMessage } from '@parley/contract/rooms';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import type { TokenUser } from '@parley/contract/auth';
import { notificationEvents, type AppNotification, type NotificationPage } from '@parley/contract/notifications';
import {
  liveEvents,
  LIVE_GIFTS_PER_MINUTE,
  type LiveFollowState,
  type LiveGiftAnswer,
  type LivePublishAnswer,
  type LiveStream,
  type LiveWatchAnswer,
} from '@parley/contract/live';
import { SHOP_ERR } from '@parley/contract/shop';
import { next, silent, socketTestServer } from '../testing/socketClients.ts';
import { giveGold, goldOf, member } from '../testing/members.ts';
import { startLocalStun } from './localStun.ts';
import { nodeBroadcaster } from './nodePeers.ts';

const t = socketTestServer();
let stun: Awaited<ReturnType<typeof startLocalStun>>;
beforeAll(async () => {
  stun = await startLocalStun();
});
afterAll(() => stun.close());

type Member = Awaited<ReturnType<typeof member>> & { token: string };
const newMember = () => member(t.server());
const json = async <T>(res: Response) => ({ status: res.status, body: (await res.json()) as T });
const call = (m: Member, method: string, path: string, body?: unknown) =>
  t.server().api(`/api${path}`, { method, json: body, headers: { authorization: `Bearer ${m.token}` } });
const ask = <A>(s: Socket, event: string, payload: unknown) => s.timeout(10_000).emitWithAck(event, payload) as Promise<A>;

async function tokenOf(user: TokenUser) {
  return t.server().deps.tokens.sign(user);
}

/** `member()` with its token, for raw calls. */
async function account() {
  const m = await newMember();
  return { ...m, token: await tokenOf(m.user) };
}

/** `m` goes live and its node broadcaster publishes: the moment followers are told. */
async function goLive(m: Member, title = 'Night walk') {
  const made = await json<LiveStream>(await call(m, 'POST', '/live', { title, category: 'Outdoors' }));
  expect(made.status).toBe(201);
  const socket = await t.open(m.user);
  const caster = nodeBroadcaster(stun.url);
  const published = await ask<LivePublishAnswer>(socket, liveEvents.publish, { roomId: made.body.roomId, offer: await caster.offer() });
  if (!published.ok) throw new Error(published.message);
  await caster.accept(published.answer);
  return { stream: made.body, socket, caster };
}

const wentLiveNotices = async (m: Member) =>
  (await json<NotificationPage>(await call(m, 'GET', '/notifications'))).body.notificationList.filter((n) => n.kind === 'wentLive');

describe('following a broadcaster', () => {
  it('follows and unfollows; never yourself, never a missing account; state is per follower', async () => {
    const [ana, bo, cy] = await Promise.all([account(), account(), account()]);
    expect(await json(await call(ana, 'PUT', `/live/follows/${ana.userId}`))).toMatchObject({ status: 400, body: { code: 'follow_self' } });
    expect((await call(ana, 'PUT', `/live/follows/${randomUUID()}`)).status).toBe(404);
    expect((await call(ana, 'PUT', '/live/follows/not-a-uuid')).status).toBe(400);
    expect(await json<LiveFollowState>(await call(ana, 'PUT', `/live/follows/${bo.userId}`))).toEqual({
      status: 200,
      body: { following: true, followers: 1 },
    });
    // Twice is once.
    expect((await json<LiveFollowState>(await call(ana, 'PUT', `/live/follows/${bo.userId}`))).body.followers).toBe(1);
    // Someone else's unfollow removes only their own follow.
    expect((await json<LiveFollowState>(await call(cy, 'DELETE', `/live/follows/${bo.userId}`))).body).toEqual({
      following: false,
      followers: 1,
    });
    expect((await json<LiveFollowState>(await call(cy, 'GET', `/live/follows/${bo.userId}`))).body).toEqual({
      following: false,
      followers: 1,
    });
    expect((await json<LiveFollowState>(await call(ana, 'DELETE', `/live/follows/${bo.userId}`))).body).toEqual({
      following: false,
      followers: 0,
    });
    expect((await t.server().api(`/api/live/follows/${bo.userId}`)).status).toBe(401);
  });

  it('tells followers once when a stream starts, and not again for a quick restart', async () => {
    const [caster, fan, stranger] = await Promise.all([account(), account(), account()]);
    await call(fan, 'PUT', `/live/follows/${caster.userId}`);
    const fanSocket = await t.open(fan.user);
    const told = next<AppNotification>(fanSocket, notificationEvents.created, (n) => n.kind === 'wentLive', 10_000);
    const first = await goLive(caster, 'Sunset from the roof');
    const notice = await told;
    expect(notice).toMatchObject({ kind: 'wentLive', link: `/livestream/${first.stream.roomId}` });
    expect(notice.text).toContain('is live: Sunset from the roof');
    // Publishing again (a reconnect) is the same stream: no second notice.
    const again = nodeBroadcaster(stun.url);
    await ask<LivePublishAnswer>(first.socket, liveEvents.publish, { roomId: first.stream.roomId, offer: await again.offer() });
    expect(await call(caster, 'POST', `/live/${first.stream.roomId}/end`).then((r) => r.status)).toBe(200);
    // A restart within the interval is not announced again.
    const second = await goLive(caster, 'Sunset, take two');
    expect(await silent(fanSocket, notificationEvents.created, 800)).toBe(true);
    expect(await wentLiveNotices(fan)).toHaveLength(1);
    expect(await wentLiveNotices(stranger)).toHaveLength(0);
    await Promise.all([first.caster.close(), again.close(), second.caster.close()]);
  });
});

describe('gifts in a live stream', () => {
  it('moves gold to the broadcaster, shows the gift in the chat once per key, and refuses gifts to yourself', async () => {
    const [caster, fan, other] = await Promise.all([account(), account(), account()]);
    await giveGold(t.server(), fan.userId, 100);
    await giveGold(t.server(), caster.userId, 5);
    const { stream, socket: casterSocket, caster: media } = await goLive(caster, 'Painting');
    const fanSocket = await t.open(fan.user);
    const watching = await ask<LiveWatchAnswer>(fanSocket, liveEvents.watch, { roomId: stream.roomId });
    expect(watching.ok).toBe(true);
    const otherSocket = await t.open(other.user);
    await ask<LiveWatchAnswer>(otherSocket, liveEvents.watch, { roomId: stream.roomId });

    const idempotencyKey = randomUUID();
    await ask(otherSocket, roomEvents.join, { roomId: stream.roomId });
    await ask(casterSocket, roomEvents.join, { roomId: stream.roomId });
    const shown = next<RoomMessage>(otherSocket, roomEvents.message, (m) => m.gift !== undefined);
    const casterSees = next<RoomMessage>(casterSocket, roomEvents.message, (m) => m.gift !== undefined);
    const sent = await ask<LiveGiftAnswer>(fanSocket, liveEvents.gift, { roomId: stream.roomId, amount: 30, idempotencyKey });
    expect(sent).toEqual({ ok: true, gold: 70 });
    expect(await shown).toMatchObject({ senderId: fan.userId, gift: 30, text: 'sent 30 gold' });
    await casterSees;
    // A retry is answered the same, moves nothing and is not shown again.
    expect(await ask<LiveGiftAnswer>(fanSocket, liveEvents.gift, { roomId: stream.roomId, amount: 30, idempotencyKey })).toEqual({
      ok: true,
      gold: 70,
    });
    expect(await silent(otherSocket, roomEvents.message, 500)).toBe(true);
    expect(await goldOf(t.server(), fan.userId)).toBe(70);
    expect(await goldOf(t.server(), caster.userId)).toBe(35);

    expect(
      await ask<LiveGiftAnswer>(casterSocket, liveEvents.gift, { roomId: stream.roomId, amount: 1, idempotencyKey: randomUUID() }),
    ).toMatchObject({
      ok: false,
      code: 'gift_to_self',
    });
    expect(
      await ask<LiveGiftAnswer>(fanSocket, liveEvents.gift, { roomId: stream.roomId, amount: 500, idempotencyKey: randomUUID() }),
    ).toMatchObject({
      ok: false,
      message: SHOP_ERR.notEnoughGold,
    });
    expect(
      await ask<LiveGiftAnswer>(fanSocket, liveEvents.gift, { roomId: stream.roomId, amount: -5, idempotencyKey: randomUUID() }),
    ).toMatchObject({
      ok: false,
    });
    // Someone not watching cannot gift into the stream.
    const outsider = await account();
    await giveGold(t.server(), outsider.userId, 50);
    const outsiderSocket = await t.open(outsider.user);
    expect(
      await ask<LiveGiftAnswer>(outsiderSocket, liveEvents.gift, { roomId: stream.roomId, amount: 5, idempotencyKey: randomUUID() }),
    ).toMatchObject({
      ok: false,
      code: 'not_watching',
    });
    expect(await goldOf(t.server(), outsider.userId)).toBe(50);
    await media.close();
  });

  it('a gift is a message of the chat: caught up by id, and hidden from someone who blocked the giver', async () => {
    const [caster, fan, blocker] = await Promise.all([account(), account(), account()]);
    await giveGold(t.server(), fan.userId, 50);
    const { stream, socket: casterSocket, caster: media } = await goLive(caster, 'Pottery');
    const roomId = stream.roomId;
    const fanSocket = await t.open(fan.user);
    const blockerSocket = await t.open(blocker.user);
    for (const s of [fanSocket, blockerSocket]) expect((await ask<LiveWatchAnswer>(s, liveEvents.watch, { roomId })).ok).toBe(true);
    expect((await call(blocker, 'POST', '/settings/blocks', { username: fan.user.username })).status).toBeLessThan(300);
    const before = await ask<JoinAnswer>(casterSocket, roomEvents.join, { roomId });
    await ask(blockerSocket, roomEvents.join, { roomId });
    const casterSees = next<RoomMessage>(casterSocket, roomEvents.message, (m) => m.gift !== undefined);
    const hidden = silent(blockerSocket, roomEvents.message, 800);
    expect(await ask<LiveGiftAnswer>(fanSocket, liveEvents.gift, { roomId, amount: 5, idempotencyKey: randomUUID() })).toEqual({
      ok: true,
      gold: 45,
    });
    const gift = await casterSees;
    expect(await hidden).toBe(true);
    // Under the chat's next id, so a page that was away catches up on it like on any message.
    const last = before.ok ? Math.max(0, ...before.messages.map((m) => m.id)) : 0;
    expect(gift).toMatchObject({ id: last + 1, senderId: fan.userId, gift: 5, text: 'sent 5 gold' });
    const caught = await ask<JoinAnswer>(casterSocket, roomEvents.join, { roomId, after: last });
    expect(caught).toMatchObject({ ok: true, messages: [gift] });
    await media.close();
  });

  it('limits how many gifts a viewer sends a minute', async () => {
    const [caster, fan] = await Promise.all([account(), account()]);
    await giveGold(t.server(), fan.userId, 1000);
    const { stream, caster: media } = await goLive(caster, 'Rate limits');
    const fanSocket = await t.open(fan.user);
    await ask<LiveWatchAnswer>(fanSocket, liveEvents.watch, { roomId: stream.roomId });
    const answers: LiveGiftAnswer[] = [];
    for (let i = 0; i <= LIVE_GIFTS_PER_MINUTE; i++)
      answers.push(
        await ask<LiveGiftAnswer>(fanSocket, liveEvents.gift, { roomId: stream.roomId, amount: 1, idempotencyKey: randomUUID() }),
      );
    expect(answers.slice(0, LIVE_GIFTS_PER_MINUTE).every((a) => a.ok)).toBe(true);
    expect(answers.at(-1)).toMatchObject({ ok: false, code: 'rate_limited' });
    expect(await goldOf(t.server(), fan.userId)).toBe(1000 - LIVE_GIFTS_PER_MINUTE);
    await media.close();
  });
});
