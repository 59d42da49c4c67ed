import { describe, expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import { chatEvents, type SocketError } from '@parley/contract/matchmaking';
import { randomUUID } from 'node:crypto';
import { roomEvents, type RoomMessage } from '@parley/contract/rooms';
import { next, person, postTo, socketTestServer } from '../testing/socketClients.ts';
import { messageRateLimit, SOCKET_FRAMES_BURST, TokenBucket, USER_FRAMES_BURST, userFrameBudgets } from './eventRateLimit.ts';
import { TOO_MANY_FRAMES } from './server.ts';

const clients = socketTestServer();
const { open } = clients;

/** How a socket ended: the error it was told (if any) and socket.io's reason. */
function ending(s: Socket): Promise<{ error?: SocketError; reason: string }> {
  let error: SocketError | undefined;
  s.on(chatEvents.error, (e: SocketError) => {
    if (e.code === 'rate_limited') error = e;
  });
  return new Promise((resolve) => s.once('disconnect', (reason) => resolve({ ...(error && { error }), reason })));
}

/** Typing on and off in a room (any room: the frames are what counts, not whether they reach anyone). */
const typing = (s: Socket, frames: number, roomId: string = randomUUID()) => {
  for (let i = 0; i < frames; i++) s.emit(roomEvents.typing, { roomId, typing: i % 2 === 0 });
};

describe('a flood of small frames', () => {
  it('from one socket: the socket is told and closed while health and a chat between others go on', async () => {
    const { ka, kb, roomId } = await clients.chatting();
    const flooder = await open(person());
    const ended = ending(flooder);
    typing(flooder, 20_000);
    // The server answers while the flood is being read.
    const health = clients.server().api('/api/health');
    expect((await health).status).toBe(200);
    expect(await ended).toEqual({
      error: { event: 'socket', message: TOO_MANY_FRAMES, code: 'rate_limited' },
      reason: 'io server disconnect',
    });
    // Two other people chatting were not slowed into failure, nor cut.
    const got = next<RoomMessage>(kb, roomEvents.message);
    expect(await postTo(ka, roomId, 'still here')).toMatchObject({ ok: true });
    expect((await got).text).toBe('still here');
    expect([ka.connected, kb.connected]).toEqual([true, true]);
  });

  it("from several sockets of one user, each within its own budget: the user's budget closes them", async () => {
    const u = person();
    const tabs = await Promise.all(Array.from({ length: 5 }, () => open(u)));
    const endings = tabs.map(ending);
    // Each tab stays under its own burst; together they send twice the user's.
    const perTab = SOCKET_FRAMES_BURST - 10;
    expect(perTab * tabs.length).toBeGreaterThan(2 * USER_FRAMES_BURST);
    for (const s of tabs) typing(s, perTab);
    // However the tabs' frames interleave, once USER_FRAMES_BURST are spent every later frame is
    // refused: at most two tabs can have had all theirs read before that.
    const mustClose = tabs.length - Math.floor(USER_FRAMES_BURST / perTab);
    const closed = await firstOf(endings, mustClose);
    for (const c of closed) expect(c.error?.code).toBe('rate_limited');
    // A typing user stays well within it.
    const calm = await open(person());
    typing(calm, 20);
    const ack = await postTo(calm, randomUUID(), 'hello');
    expect(calm.connected).toBe(true);
    expect(ack).toMatchObject({ ok: false, code: 'unknown_room' });
  });
});

/** The first `n` of `promises` to settle, in the order they did. */
function firstOf<T>(promises: Array<Promise<T>>, n: number): Promise<T[]> {
  const done: T[] = [];
  return new Promise((resolve) => {
    for (const p of promises)
      void p.then((v) => {
        done.push(v);
        if (done.length === n) resolve(done);
      });
  });
}

describe('frame budgets', () => {
  it('a bucket refuses past its burst and refills at its rate', () => {
    const b = new TokenBucket(10, 5, 0);
    expect(Array.from({ length: 6 }, () => b.take(0))).toEqual([true, true, true, true, true, false]);
    expect(b.take(50)).toBe(false);
    expect(b.take(100)).toBe(true);
    expect(b.fullAt(100)).toBe(false);
    expect(b.fullAt(600)).toBe(true);
  });

  it('a bucket in debt stays out of budget until it is paid back', () => {
    const b = new TokenBucket(10, 5, 0);
    expect(b.spend(0, 5)).toBe(true);
    expect(b.spend(0, 3)).toBe(false);
    expect(b.take(250)).toBe(false);
    expect(b.take(400)).toBe(true);
  });

  it("a person's message allowance: the burst at once, then the rate, each person apart", () => {
    let t = 1000;
    const limit = messageRateLimit(2, 3, () => t);
    expect(Array.from({ length: 4 }, () => limit.take('a'))).toEqual([true, true, true, false]);
    expect(limit.take('b')).toBe(true);
    t += 499;
    expect(limit.take('a')).toBe(false);
    t += 1;
    expect(limit.take('a')).toBe(true);
    expect(limit.take('a')).toBe(false);
    t += 10_000;
    expect(Array.from({ length: 4 }, () => limit.take('a'))).toEqual([true, true, true, false]);
    limit.close();
  });

  it("a user's bucket is shared by their sockets and outlives a reconnect until it is full again", () => {
    const t = 0;
    const budgets = userFrameBudgets(100, 400, () => t);
    const one = budgets.hold('u');
    expect(budgets.hold('u')).toBe(one);
    expect(one.spend(t, 400)).toBe(true);
    budgets.release('u');
    budgets.release('u');
    // Reconnecting at once finds the same, spent bucket.
    expect(budgets.hold('u').take(t)).toBe(false);
    budgets.close();
  });
});
