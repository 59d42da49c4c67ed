import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import type { Socket } from 'socket.io-client';
import type { TokenUser } from '@parley/contract/auth';
import { chatEvents, type PartnerLeft, type ResumeAnswer, type RoomSetup } from '@parley/contract/matchmaking';
import { presenceEvents, type OnlineUsersDelta, type OnlineUsersPage } from '@parley/contract/presence';
import {
  roomEvents,
  type JoinAnswer,
  type PicturesAllowed,
  type PostAnswer,
  type ReadReceipt,
  type RoomMessage,
} from '@parley/contract/rooms';
import type { MessageAttachment } from '@parley/contract/attachments';
import type { Redis } from './platform/redis.ts';
import { messageReceipts } from './platform/receipts.ts';
import { clusterClients, connect, startCluster, type ApiProcess, type Cluster, type ClusterClients } from './testing/cluster.ts';
import { joinAll, joinRoom, next, person, postTo, search } from './testing/socketClients.ts';

/**
 * Two API processes on PostgreSQL and Redis behind nginx (deploy/nginx), as docker-compose runs
 * them: users on different processes meet and chat, the online count agrees, a process killed
 * mid-chat loses no message its chat kept, and random starts, skips, stops and leaves over several
 * processes leave nobody matched twice or stranded. Runs in `npm test` when DATABASE_URL and
 * REDIS_URL are set (vitest.cluster.config.ts).
 */
let rig: ClusterClients;
let cluster: Cluster;
let redis: Redis;

beforeAll(async () => {
  rig = clusterClients(await startCluster());
  ({ cluster, redis } = rig);
}, 120_000);
afterAll(() => rig?.close());
// Every test's sockets close when it ends, by a time-out too: a timed-out test's body runs on, and
// its sockets (or a disconnect at its end) must not reach into the tests after it.
afterEach(() => rig?.disconnectAll());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const homeOf = (socketId: string, ms?: number) => rig.homeOf(socketId, ms);
const instanceOf = (proc: ApiProcess) => rig.instanceOf(proc);
const open = (s: Socket) => rig.open(s);
const throughProxy = (proc: ApiProcess, user: TokenUser, opts?: { tab?: string; reconnection?: boolean }) =>
  rig.throughProxy(proc, user, opts);

const receipts = () => messageReceipts(new TextEncoder().encode(cluster.jwtSecret));

/**
 * A woman of `age` on `first` and a man on `second` who searches for her age only (so nobody else's
 * search meets either), matched in a 1:1 text chat.
 */
async function matchedAcross(first: ApiProcess, second: ApiProcess, age: number) {
  const a = person({ gender: 'female', age });
  const b = person({ age: age + 10 });
  const ka = await throughProxy(first, a);
  const kb = await throughProxy(second, b);
  const ma = next<RoomSetup>(ka, chatEvents.matched);
  const mb = next<RoomSetup>(kb, chatEvents.matched);
  ka.emit(chatEvents.start, search());
  kb.emit(chatEvents.start, search({ filters: { topics: [], gender: 'female', ageRange: { minAge: age - 1, maxAge: age + 1 } } }));
  const [{ roomId }] = await Promise.all([ma, mb]);
  return { a, b, ka, kb, roomId };
}

describe('several API processes as one (Redis, PostgreSQL, nginx)', () => {
  it('a 1:1 chat whose members are on two processes runs on the room core: one process holds it, the other forwards there', async () => {
    const [p0, p1] = cluster.procs as [ApiProcess, ApiProcess];
    const { a, b, ka, kb, roomId } = await matchedAcross(p0, p1, 26);
    expect(await homeOf(ka.id!)).not.toBe(await homeOf(kb.id!));
    for (const k of [ka, kb])
      expect(await k.timeout(10_000).emitWithAck(roomEvents.join, { roomId })).toMatchObject({ ok: true, messages: [] });

    const messages: RoomMessage[] = [];
    for (const [from, to, sender] of [
      [ka, kb, a],
      [kb, ka, b],
      [ka, kb, a],
    ] as const) {
      const got = next<RoomMessage>(to, roomEvents.message, (m) => m.senderId === sender.userId, 15_000);
      const answer = (await from
        .timeout(10_000)
        .emitWithAck(roomEvents.post, { roomId, clientId: randomUUID(), text: `hi from ${sender.username}` })) as PostAnswer;
      expect(answer.ok).toBe(true);
      const m = await got;
      expect(answer.ok && answer.message).toEqual(m);
      messages.push(m);
      // Signed wherever it was posted from, with the secret every process shares.
      const signed = { roomId, kind: 'textChat', senderId: sender.userId, id: String(m.id), sentAt: m.sentAt, text: m.text };
      expect(receipts().verify(signed, m.receipt!)).toBe(true);
    }
    // One log for the room, whichever process a post came through: ids rise by one.
    expect(messages.map((m) => m.id)).toEqual([1, 2, 3]);
    // Typing and read positions cross too.
    const typing = next<{ userId: string }>(ka, roomEvents.typing);
    kb.emit(roomEvents.typing, { roomId, typing: true });
    expect(await typing).toMatchObject({ userId: b.userId });
    const read = next<ReadReceipt>(ka, roomEvents.read);
    await kb.timeout(10_000).emitWithAck(roomEvents.read, { roomId, lastReadId: 3 });
    expect(await read).toEqual({ roomId, userId: b.userId, lastReadId: 3 });
    // A catch-up from either side reads the one log.
    const caught = (await kb.timeout(10_000).emitWithAck(roomEvents.join, { roomId, after: 1 })) as JoinAnswer;
    expect(caught.ok && caught.messages.map((m) => m.id)).toEqual([2, 3]);
    // A stranger on either process is refused.
    const c = person();
    const kc = await throughProxy(p1, c);
    expect(await kc.timeout(10_000).emitWithAck(roomEvents.post, { roomId, clientId: 'x', text: 'hello?' })).toMatchObject({
      ok: false,
      code: 'not_in_room',
    });
    const left = next<PartnerLeft>(kb, chatEvents.partnerLeft);
    ka.emit(chatEvents.stop);
    await left;
    // Once it ended, the chat is gone on both processes.
    await sleep(300);
    for (const k of [ka, kb])
      expect(await k.timeout(10_000).emitWithAck(roomEvents.post, { roomId, clientId: randomUUID(), text: 'still?' })).toMatchObject({
        ok: false,
        message: 'You are not in a chat right now.',
      });
  });

  it('pictures in a 1:1 chat whose members are on two processes: checked where the chat is held, served by either', async () => {
    const [p0, p1] = cluster.procs as [ApiProcess, ApiProcess];
    const { a, b, ka, kb, roomId } = await matchedAcross(p0, p1, 41);
    await joinAll(roomId, ka, kb);
    const photo = await sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 20, g: 90, b: 200 } } })
      .jpeg()
      .toBuffer();
    const http = async (proc: ApiProcess, who: TokenUser, path: string, init: RequestInit = {}) =>
      fetch(`${proc.url}/api/rooms/${roomId}${path}`, {
        ...init,
        headers: { authorization: `Bearer ${await cluster.token(who)}`, ...(init.headers as Record<string, string>) },
      });
    const upload = (proc: ApiProcess, who: TokenUser) =>
      http(proc, who, '/attachments?kind=image', { method: 'POST', headers: { 'content-type': 'image/jpeg' }, body: photo });

    // b's process does not hold the chat: the consent it checks is the holder's (nobody allowed pictures yet).
    const early = await upload(p1, b);
    expect(early.status).toBe(403);
    expect(await early.json()).toMatchObject({ code: 'pictures_not_allowed' });
    const both = next<PicturesAllowed>(kb, roomEvents.picturesAllowed, (p) => p.allowedBy.length === 2);
    for (const k of [ka, kb])
      expect(await k.timeout(10_000).emitWithAck(roomEvents.pictures, { roomId, allow: true })).toEqual({ ok: true });
    await both;

    const res = await upload(p1, b);
    expect(res.status).toBe(201);
    const attachment = (await res.json()) as MessageAttachment;
    const got = next<RoomMessage>(ka, roomEvents.message, (m) => m.senderId === b.userId, 15_000);
    const posted = (await kb
      .timeout(10_000)
      .emitWithAck(roomEvents.post, { roomId, clientId: randomUUID(), text: '', attachment: attachment.id })) as PostAnswer;
    expect(posted.ok).toBe(true);
    expect((await got).attachment).toMatchObject({ id: attachment.id, kind: 'image' });
    // Either member, through either process.
    for (const [proc, who] of [
      [p0, a],
      [p1, b],
      [p1, a],
    ] as const) {
      const file = await http(proc, who, `/attachments/${attachment.id}/thumb`);
      expect(file.status, `${who.username} on ${proc.port}`).toBe(200);
      expect(file.headers.get('content-type')).toBe('image/webp');
    }
    // Someone else, on the process that does not hold the chat: neither fetches nor uploads.
    const c = person();
    expect((await http(p1, c, `/attachments/${attachment.id}/full`)).status).toBe(403);
    expect((await upload(p1, c)).status).toBe(403);
    // One side stops allowing them: the other process hears it at once.
    expect(await ka.timeout(10_000).emitWithAck(roomEvents.pictures, { roomId, allow: false })).toEqual({ ok: true });
    expect(await (await upload(p1, b)).json()).toMatchObject({ code: 'pictures_not_allowed' });
    ka.emit(chatEvents.stop);
  });

  it('users on different processes match, chat with receipts, skip and meet again', async () => {
    const [p0, p1] = cluster.procs as [ApiProcess, ApiProcess];
    const a = person({ gender: 'female', age: 27 });
    const b = person({ age: 35 });
    const ka = await throughProxy(p0, a);
    const kb = await throughProxy(p1, b);
    expect(await homeOf(ka.id!)).not.toBe(await homeOf(kb.id!));
    const ma = next<RoomSetup>(ka, chatEvents.matched);
    const mb = next<RoomSetup>(kb, chatEvents.matched);
    ka.emit(chatEvents.start, search());
    kb.emit(chatEvents.start, search({ filters: { topics: [], gender: 'female', ageRange: { minAge: 20, maxAge: 30 } } }));
    const [ra, rb] = await Promise.all([ma, mb]);
    expect(ra.roomId).toBe(rb.roomId);
    expect(ra.receiver).toMatchObject({ userId: b.userId, username: b.username, age: 35, gender: 'male' });
    expect(rb.receiver).toMatchObject({ userId: a.userId, username: a.username, age: 27, gender: 'female' });
    expect([ra.initiator, rb.initiator].sort()).toEqual([false, true]);
    await joinAll(ra.roomId, ka, kb);

    for (const [from, to, sender] of [
      [ka, kb, a],
      [kb, ka, b],
    ] as const) {
      const got = next<RoomMessage>(to, roomEvents.message, (m) => m.senderId === sender.userId, 15_000);
      const answer = await postTo(from, ra.roomId, `hello from ${sender.username}`);
      expect(answer).toMatchObject({ ok: true });
      const m = await got;
      // The server's id, the same on both sides whichever process the post came through.
      expect(answer.ok && answer.message).toEqual(m);
      // The receipt verifies with the shared secret, whichever process signed it.
      const relayed = { roomId: ra.roomId, kind: 'textChat', senderId: sender.userId, id: String(m.id), sentAt: m.sentAt, text: m.text };
      expect(receipts().verify(relayed, m.receipt!)).toBe(true);
    }

    // A skips: B is told; both search again and meet again once the recent-partner cool-down passed.
    const left = next<PartnerLeft>(kb, chatEvents.partnerLeft);
    const again = [
      next<RoomSetup>(ka, chatEvents.matched, () => true, 20_000),
      next<RoomSetup>(kb, chatEvents.matched, () => true, 20_000),
    ];
    ka.emit(chatEvents.next, {});
    expect(await left).toEqual({ roomId: ra.roomId, reason: 'skip' });
    kb.emit(chatEvents.start, search());
    const [ra2, rb2] = (await Promise.all(again)) as [RoomSetup, RoomSetup];
    expect(ra2.roomId).toBe(rb2.roomId);
    expect(ra2.roomId).not.toBe(ra.roomId);
    expect(ra2.receiver.userId).toBe(b.userId);
    ka.disconnect();
    kb.disconnect();
  }, 40_000);

  it('the online count agrees on both processes, tabs and devices counted once', async () => {
    const [p0, p1] = cluster.procs as [ApiProcess, ApiProcess];
    await sleep(3000); // the users of the tests before (disconnected after each) have gone offline
    const counts: [number[], number[]] = [[], []];
    const watchers = [person(), person()];
    for (const [i, proc] of [p0, p1].entries()) {
      const s = connect(proc.url, await cluster.token(watchers[i]!), watchers[i]!);
      s.on(presenceEvents.onlineUsers, (p: OnlineUsersPage) => counts[i]!.push(p.count));
      s.on(presenceEvents.onlineUsersDelta, (d: OnlineUsersDelta) => counts[i]!.push(d.count));
      await open(s);
    }
    // One user with tabs on both processes, two with one tab each.
    const multi = person();
    const others = [person(), person()];
    await open(connect(p0.url, await cluster.token(multi), multi));
    await open(connect(p1.url, await cluster.token(multi), multi));
    await open(connect(p0.url, await cluster.token(others[0]!), others[0]!));
    await open(connect(p1.url, await cluster.token(others[1]!), others[1]!));
    const before = Date.now();
    const settled = async (n: number) => {
      while (counts.some((c) => c.at(-1) !== n)) {
        if (Date.now() - before > 1500) throw new Error(`counts ${counts.map((c) => c.at(-1)).join('/')} instead of ${n}`);
        await sleep(20);
      }
    };
    // Within a second (and the time to connect): 2 watchers + 3 users.
    await settled(5);
    expect(Number(await redis.hlen(`${cluster.prefix}pr:users`))).toBe(5);
  }, 30_000);

  it('a process killed mid-chat: its clients reconnect through the proxy to the other, and the chats go on where they are held now', async ({
    signal,
  }) => {
    const [p0, p1] = cluster.procs as [ApiProcess, ApiProcess];
    /** `received`: the partner's messages this page got (live or by catch-up); `delivered`: its own the chat kept. */
    type Side = { user: TokenUser; socket: Socket; tab: string; roomId?: string; received: number[]; delivered: number[] };
    const pairs: Array<[Side, Side]> = [];
    for (let i = 0; i < 6; i++) {
      const sides = [] as unknown as [Side, Side];
      for (const proc of [p0, p1]) {
        // Timed out: no new page, and no search into the queue the next test's pages share.
        signal.throwIfAborted();
        const user = person();
        const tab = randomUUID();
        const socket = await throughProxy(proc, user, { tab, reconnection: true });
        const side: Side = { user, socket, tab, received: [], delivered: [] };
        socket.on(roomEvents.message, (m: RoomMessage) => {
          if (m.senderId !== user.userId) side.received.push(m.id);
        });
        sides.push(side);
      }
      const setups = sides.map((s) => next<RoomSetup>(s.socket, chatEvents.matched, () => true, 10_000));
      // The side that arrives second is the chat's first member, whose process holds its messages:
      // p0's (which survives the kill) in even pairs, p1's (killed) in odd ones.
      const [first, second] = i % 2 === 0 ? [sides[1], sides[0]] : [sides[0], sides[1]];
      const waiting = next(first.socket, chatEvents.searching);
      signal.throwIfAborted();
      first.socket.emit(chatEvents.start, search());
      await waiting;
      signal.throwIfAborted();
      second.socket.emit(chatEvents.start, search());
      const [r0, r1] = await Promise.all(setups);
      expect(r0!.roomId).toBe(r1!.roomId);
      for (const s of sides) s.roomId = r0!.roomId;
      await joinAll(r0!.roomId, ...sides.map((s) => s.socket));
      pairs.push(sides);
    }
    const victims = pairs.map((p) => p[1]);
    const [p0Id, p1Id] = [await instanceOf(p0), await instanceOf(p1)];
    for (const [i, [s0]] of pairs.entries())
      expect(await redis.hget(`${cluster.prefix}room:${s0.roomId}`, 'holder')).toBe(i % 2 === 0 ? p0Id : p1Id);
    // The other side of every pair hears its partner came back.
    const back = pairs.map(([s0]) => next(s0.socket, chatEvents.partnerBack, () => true, 15_000));
    // Back, a page takes its chat back, then opens it again from the last message it saw (the catch-up).
    const resumed = victims.map(
      (v) =>
        new Promise<ResumeAnswer>((resolve) => {
          v.socket.io.once('reconnect', () => {
            void (async () => {
              const answer = (await v.socket.timeout(10_000).emitWithAck(chatEvents.resume, { roomId: v.roomId })) as ResumeAnswer;
              reconnectMs.push(Date.now() - killedAt);
              // A long absence comes a page at a time (`hasNewer`), as the app reads it.
              let caught = await joinRoom(v.socket, v.roomId!, Math.max(0, ...v.received));
              for (;;) {
                if (!caught.ok) break;
                // What also arrived live meanwhile counts once, as the page shows it once (by id).
                for (const m of caught.messages) if (m.senderId !== v.user.userId && !v.received.includes(m.id)) v.received.push(m.id);
                if (!caught.hasNewer || caught.messages.length === 0) break;
                caught = await joinRoom(v.socket, v.roomId!, Math.max(...caught.messages.map((m) => m.id)));
              }
              resolve(answer.ok && caught.ok ? answer : { ok: false });
            })().catch(() => resolve({ ok: false }));
          });
        }),
    );

    let killedAt = 0;
    const reconnectMs: number[] = [];
    let sending = true;
    // Each side sends every 40 ms without waiting for answers (a message lost in the kill times out).
    const acks: Array<Promise<void>> = [];
    const send = async (s: Side) => {
      // A time-out (signal) ends the sending too: the body of a timed-out test runs on.
      for (let n = 0; sending && !signal.aborted; n++) {
        if (s.socket.connected)
          acks.push(
            postTo(s.socket, s.roomId!, `m${n}`, `${s.user.userId}:${n}`).then(
              (answer) => {
                if (answer.ok) s.delivered.push(answer.message.id);
              },
              () => undefined,
            ),
          );
        await sleep(40);
      }
    };
    const senders = pairs.flat().map(send);
    await sleep(800);
    signal.throwIfAborted();
    killedAt = Date.now();
    p1.child.kill('SIGKILL');
    const answers = await Promise.all(resumed);
    expect(answers.every((a) => a.ok)).toBe(true);
    await Promise.all(back);
    // Messages flow again both ways after the resume.
    const counted = pairs.flat().map((s) => s.delivered.length);
    await sleep(1000);
    sending = false;
    await Promise.all(senders);
    await Promise.all(acks);
    pairs.flat().forEach((s, i) => expect(s.delivered.length).toBeGreaterThan(counted[i]!));
    for (const [i, [x, y]] of pairs.entries()) {
      for (const [from, to] of [
        [x, y],
        [y, x],
      ] as const) {
        // Where the surviving process held the chat, every message it kept arrived, once. Where the
        // killed one held it, what it kept and had not passed on died with it (README): that chat is
        // only required to go on (above) under the process that took it over (below).
        const got = new Set(to.received);
        if (i % 2 === 0) expect(from.delivered.filter((id) => !got.has(id))).toEqual([]);
        expect(to.received.length).toBe(got.size);
      }
      // The chat taken over is held by the survivor's process now.
      expect(await redis.hget(`${cluster.prefix}room:${x.roomId}`, 'holder')).toBe(p0Id);
    }
    expect(Math.max(...reconnectMs)).toBeLessThan(10_000);
    // A page that took its chat back in the other process skips as before: its partner is told, it searches on.
    const [stay, moved] = pairs[0]!;
    const skipped = next<PartnerLeft>(stay.socket, chatEvents.partnerLeft);
    const searching = next(moved.socket, chatEvents.searching);
    moved.socket.emit(chatEvents.next, {});
    expect(await skipped).toEqual({ roomId: stay.roomId, reason: 'skip' });
    await searching;
  }, 60_000);

  it('random starts, skips, stops and leaves over three processes: nobody matched twice, nobody stranded', async () => {
    // The killed process is replaced, and one more starts: three processes, the proxy not needed.
    const procs = [cluster.procs[0]!, await cluster.add(), await cluster.add()];
    let seed = 20261126;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    type Client = {
      user: TokenUser;
      socket: Socket;
      rooms: string[];
      room: string | undefined;
      state: 'idle' | 'searching' | 'room';
      log: string[];
    };
    const clients: Client[] = [];
    const roomsSeen = new Map<string, Set<string>>();
    const errors: string[] = [];
    const attach = (c: Client) => {
      c.socket.on(chatEvents.matched, (r: RoomSetup) => {
        c.log.push(`matched ${r.roomId.slice(0, 6)} ${c.state}`);
        if (c.rooms.includes(r.roomId)) errors.push(`${c.user.username} matched twice to ${r.roomId}`);
        c.rooms.push(r.roomId);
        const users = roomsSeen.get(r.roomId) ?? new Set();
        users.add(c.user.userId);
        roomsSeen.set(r.roomId, users);
        // A match answered before a stop the client sent since: the stop ends it.
        if (c.state === 'idle') return;
        c.room = r.roomId;
        c.state = 'room';
      });
      c.socket.on(chatEvents.partnerLeft, (e: PartnerLeft) => {
        c.log.push(`left ${e.roomId.slice(0, 6)} ${e.reason}`);
        if (c.room === e.roomId) {
          c.room = undefined;
          c.state = 'idle';
        }
      });
      c.socket.on(chatEvents.error, (e: { code?: string }) => errors.push(`${c.user.username}: ${e.code}`));
    };
    const fresh = async (user: TokenUser) => {
      const proc = procs[rand(procs.length)]!;
      const c: Client = {
        user,
        socket: await open(connect(proc.url, await cluster.token(user), user)),
        rooms: [],
        room: undefined,
        state: 'idle',
        log: [],
      };
      attach(c);
      return c;
    };
    for (let i = 0; i < 40; i++) clients.push(await fresh(person()));

    // A count of operations, not a duration: a machine busy with other tests only takes longer.
    const OPS = 1500;
    let ops = 0;
    // Each client acts every 250–450 ms: under the search allowance (5 a second).
    const act = async (i: number, until: number) => {
      while (ops < OPS && Date.now() < until) {
        const c = clients[i]!;
        const r = rand(10);
        c.log.push(`op ${r} ${c.state}`);
        // What a page can do in each state: a search under way is stopped or left, never restarted
        // (its match may be on the way: the client could not tell which room the server left).
        if (r < 7 && c.state !== 'searching') {
          c.socket.emit(c.state === 'room' ? chatEvents.next : chatEvents.start, c.state === 'room' ? {} : search());
          c.room = undefined;
          c.state = 'searching';
          ops++;
        } else if (r >= 7 && r < 9) {
          c.socket.emit(chatEvents.stop);
          c.room = undefined;
          c.state = 'idle';
          ops++;
        } else if (r === 9) {
          c.socket.disconnect();
          clients[i] = await fresh(c.user);
          ops++;
        }
        await sleep(250 + rand(200));
      }
    };
    // The deadline only catches a stall (about 15 s on a quiet machine).
    const until = Date.now() + 100_000;
    await Promise.all(clients.map((_, i) => act(i, until)));
    expect(ops).toBeGreaterThanOrEqual(OPS);
    // Quiet: past the recent-partner cool-down, whoever searches has met whoever was free.
    await sleep(12_000);

    expect(errors).toEqual([]);
    // Every room was opened for two different users.
    for (const [roomId, users] of roomsSeen) if (users.size > 2) errors.push(`${roomId} had ${users.size} users`);
    expect(errors).toEqual([]);
    // The shared records agree with the clients: the same rooms, each of two sockets, nobody in two.
    const inRooms = new Map<string, string>();
    for (const key of await redis.keys(`${cluster.prefix}room:*`)) {
      const members = Object.keys(await redis.hgetall(key))
        .filter((f) => f.startsWith('m:'))
        .map((f) => f.slice(2));
      expect(members).toHaveLength(2);
      for (const m of members) {
        expect(inRooms.has(m)).toBe(false);
        inRooms.set(m, key.slice(`${cluster.prefix}room:`.length));
      }
    }
    for (const c of clients) {
      const inRoom = inRooms.get(c.socket.id!);
      if (inRoom !== (c.state === 'room' ? c.room : undefined)) {
        const other = clients.find((o) => o !== c && inRooms.get(o.socket.id!) === inRoom);
        console.error(
          'DIAG',
          c.state,
          c.room,
          inRoom,
          c.rooms.slice(-3),
          other?.state,
          other?.room,
          other?.rooms.slice(-3),
          c.log.slice(-8),
          other?.log.slice(-8),
        );
      }
      expect(inRoom).toBe(c.state === 'room' ? c.room : undefined);
      if (c.state === 'room') expect(roomsSeen.get(c.room!)?.size).toBe(2);
    }
    // Nobody stranded: everyone accepts everyone, so at most one search is left waiting.
    const waiting = await redis.hkeys(`${cluster.prefix}mm:wait:textChat`);
    expect(waiting.length).toBeLessThanOrEqual(1);
    const searching = clients.filter((c) => c.state === 'searching').map((c) => c.socket.id!);
    expect(waiting.sort()).toEqual(searching.sort());
  }, 240_000);
});
