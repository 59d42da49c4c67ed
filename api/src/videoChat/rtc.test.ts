import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { io as ioClient, type Socket } from 'socket.io-client';
import { WebSocket } from 'ws';
import type { TokenUser } from '@parley/contract/auth';
import { chatEvents, type RoomSetup, type SocketError } from '@parley/contract/matchmaking';
import { rtcEvents, MAX_CALL_ATTEMPTS, type CallRedial } from '@parley/contract/videoChat';
import type { PeerTicketAnswer, RtcConfig } from '@parley/contract/videoChat';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { hasTurn, NOT_IN_ROOM } from './routes.ts';
import { REALTIME_PROTOCOL } from '@parley/contract/protocol';

let server: TestServer;
const sockets: Socket[] = [];
const peers: WebSocket[] = [];
const ICE = [{ urls: 'turn:turn.example.org:3478', username: 'u', credential: 'p' }];

beforeAll(async () => {
  server = await startTestServer({ ICE_SERVERS: JSON.stringify(ICE) });
});
afterAll(() => server.close());
afterEach(() => {
  for (const s of sockets.splice(0)) s.disconnect();
  for (const p of peers.splice(0)) p.close();
});

function person(): TokenUser {
  const userId = randomUUID();
  return { userId, username: `v${userId.slice(0, 8)}`, avatar: '', gender: 'female', age: 25, isVerified: true, premiumUser: 'free tier' };
}

async function signedIn(query: Record<string, string> = {}, user = person(), given?: string) {
  const token = given ?? (await server.deps.tokens.sign(user));
  const socket = ioClient(server.url, {
    path: '/socket.io',
    transports: ['websocket'],
    reconnection: false,
    auth: { token, protocol: REALTIME_PROTOCOL },
    query: { userId: user.userId, username: user.username, ...query },
  });
  sockets.push(socket);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  return { user, token, socket };
}

const once = <T>(s: Socket, event: string) =>
  new Promise<T>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`no ${event}`)), 5000);
    s.once(event, (p: T) => {
      clearTimeout(t);
      resolve(p);
    });
  });

async function matchedPair() {
  const a = await signedIn();
  const b = await signedIn();
  const setups = Promise.all([once<RoomSetup>(a.socket, chatEvents.matched), once<RoomSetup>(b.socket, chatEvents.matched)]);
  for (const p of [a, b]) p.socket.emit(chatEvents.start, { roomType: 'videoChat', filters: {} });
  const [sa, sb] = await setups;
  return { a, b, sa, sb };
}

const ticketFor = (token: string, body: unknown) =>
  server.api('/api/rtc/peer', { method: 'POST', json: body, headers: { authorization: `Bearer ${token}` } });

/** 'open' once registered, the signalling server's refusal otherwise (an HTTP status, or a message type such as ID-TAKEN). */
function registerPeer(query: Record<string, string>): Promise<string | number> {
  const ws = new WebSocket(`${server.url.replace('http', 'ws')}/peerjs/peerjs?${new URLSearchParams(query)}`);
  peers.push(ws);
  return new Promise((resolve, reject) => {
    ws.on('unexpected-response', (_q, res) => resolve(res.statusCode ?? 0));
    ws.on('message', (d) => {
      const { type } = JSON.parse(d.toString()) as { type: string };
      resolve(type === 'OPEN' ? 'open' : type);
    });
    ws.on('error', reject);
  });
}

describe('GET /api/rtc/config', () => {
  it('needs a signed-in user', async () => {
    expect((await server.api('/api/rtc/config')).status).toBe(401);
  });

  it('gives the ICE servers from ICE_SERVERS and where the signalling server is; with TURN, media is relayed only', async () => {
    const { token } = await signedIn();
    const res = await server.api('/api/rtc/config', { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    // Strangers never learn each other's address from a call when a TURN server can relay it.
    expect((await res.json()) as RtcConfig).toEqual({
      iceServers: ICE,
      iceTransportPolicy: 'relay',
      peer: { path: '/peerjs', key: 'parley', url: null },
    });
  });

  it('lets peers connect directly when no TURN server is configured', () => {
    expect(hasTurn([{ urls: 'stun:stun.example.org' }])).toBe(false);
    expect(hasTurn([])).toBe(false);
    expect(hasTurn([{ urls: ['stun:a.example', 'turns:b.example:5349'] }])).toBe(true);
  });
});

describe('GET /api/rtc/relay', () => {
  it('tells anyone, signed in or not, whether calls are relayed, and nothing of the servers', async () => {
    const res = await server.api('/api/rtc/relay');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ relayOnly: true });
  });
});

describe('POST /api/rtc/peer and registration', () => {
  it("gives the two matched users each other's peer ids and a ticket for their own, which registers", async () => {
    const { a, b, sa, sb } = await matchedPair();
    expect(sa.roomId).toBe(sb.roomId);
    expect(sa.initiator).not.toBe(sb.initiator);
    const ra = await ticketFor(a.token, { roomId: sa.roomId, partnerId: b.user.userId });
    const rb = await ticketFor(b.token, { roomId: sb.roomId, partnerId: a.user.userId });
    expect(ra.status).toBe(200);
    const ta = (await ra.json()) as PeerTicketAnswer;
    const tb = (await rb.json()) as PeerTicketAnswer;
    expect(ta.partnerPeerId).toBe(tb.peerId);
    expect(tb.partnerPeerId).toBe(ta.peerId);
    // The PeerJS WebSocket upgrade works beside socket.io's on the same server.
    await expect(registerPeer({ key: 'parley', id: ta.peerId, token: ta.ticket })).resolves.toBe('open');
    expect(a.socket.connected).toBe(true);
  });

  it("refuses a peer registering another user's id, or without a token", async () => {
    const { a, b, sa, sb } = await matchedPair();
    const ta = (await (await ticketFor(a.token, { roomId: sa.roomId, partnerId: b.user.userId })).json()) as PeerTicketAnswer;
    const tb = (await (await ticketFor(b.token, { roomId: sb.roomId, partnerId: a.user.userId })).json()) as PeerTicketAnswer;
    await expect(registerPeer({ key: 'parley', id: tb.peerId, token: ta.ticket })).resolves.toBe(401);
    await expect(registerPeer({ key: 'parley', id: ta.peerId })).resolves.toBe(401);
    await expect(registerPeer({ key: 'parley', id: ta.peerId, token: a.token })).resolves.toBe(401);
  });

  it('refuses anyone not in that room, a wrong partner, and a room that has ended', async () => {
    const { a, b, sa } = await matchedPair();
    const outsider = await signedIn();
    const refused = await ticketFor(outsider.token, { roomId: sa.roomId, partnerId: a.user.userId });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ message: NOT_IN_ROOM, code: 'not_in_room' });
    expect((await ticketFor(a.token, { roomId: sa.roomId, partnerId: outsider.user.userId })).status).toBe(403);
    const left = once(b.socket, chatEvents.partnerLeft);
    a.socket.emit(chatEvents.stop);
    await left;
    expect((await ticketFor(a.token, { roomId: sa.roomId, partnerId: b.user.userId })).status).toBe(403);
    expect((await ticketFor(b.token, { roomId: sa.roomId, partnerId: a.user.userId })).status).toBe(403);
  });

  it('a page whose connection dropped and that took its video room back on a new socket still gets its ticket', async () => {
    const tab = randomUUID();
    const a = await signedIn({ tab });
    const b = await signedIn();
    const setups = Promise.all([once<RoomSetup>(a.socket, chatEvents.matched), once<RoomSetup>(b.socket, chatEvents.matched)]);
    for (const p of [a, b]) p.socket.emit(chatEvents.start, { roomType: 'videoChat', filters: {} });
    const [sa] = await setups;
    const away = once(b.socket, chatEvents.partnerAway);
    a.socket.io.engine.close();
    await away;
    const again = await signedIn({ tab }, a.user, a.token);
    expect(await again.socket.timeout(2000).emitWithAck(chatEvents.resume, { roomId: sa.roomId })).toEqual({
      ok: true,
      partnerAway: false,
    });
    expect((await ticketFor(a.token, { roomId: sa.roomId, partnerId: b.user.userId })).status).toBe(200);
    expect((await ticketFor(b.token, { roomId: sa.roomId, partnerId: a.user.userId })).status).toBe(200);
  });

  it('refuses text chat rooms, bad bodies and anonymous callers', async () => {
    const a = await signedIn();
    const b = await signedIn();
    const setups = Promise.all([once<RoomSetup>(a.socket, chatEvents.matched), once<RoomSetup>(b.socket, chatEvents.matched)]);
    for (const p of [a, b]) p.socket.emit(chatEvents.start, { roomType: 'textChat', filters: {} });
    const [sa] = await setups;
    expect((await ticketFor(a.token, { roomId: sa.roomId, partnerId: b.user.userId })).status).toBe(403);
    const bad = await ticketFor(a.token, { roomId: 42 });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { code: string }).code).toBe('validation_failed');
    expect((await server.api('/api/rtc/peer', { method: 'POST', json: { roomId: sa.roomId, partnerId: b.user.userId } })).status).toBe(401);
  });
});

describe('placing a video call again (video:redial)', () => {
  it('gives both sides the next attempt, whose fresh peer ids register beside the old ones', async () => {
    const { a, b, sa, sb } = await matchedPair();
    const first = (await (await ticketFor(a.token, { roomId: sa.roomId, partnerId: b.user.userId })).json()) as PeerTicketAnswer;
    await expect(registerPeer({ key: 'parley', id: first.peerId, token: first.ticket })).resolves.toBe('open');

    const heard = Promise.all([once<CallRedial>(a.socket, rtcEvents.redial), once<CallRedial>(b.socket, rtcEvents.redial)]);
    // Both sides' calls failed and both ask: the attempt is placed once.
    a.socket.emit(rtcEvents.redial, { roomId: sa.roomId, attempt: 0 });
    b.socket.emit(rtcEvents.redial, { roomId: sb.roomId, attempt: 0 });
    expect(await heard).toEqual([
      { roomId: sa.roomId, attempt: 1 },
      { roomId: sa.roomId, attempt: 1 },
    ]);

    const ta = (await (await ticketFor(a.token, { roomId: sa.roomId, partnerId: b.user.userId, attempt: 1 })).json()) as PeerTicketAnswer;
    const tb = (await (await ticketFor(b.token, { roomId: sb.roomId, partnerId: a.user.userId, attempt: 1 })).json()) as PeerTicketAnswer;
    expect(ta.peerId).not.toBe(first.peerId);
    expect(ta.partnerPeerId).toBe(tb.peerId);
    expect(tb.partnerPeerId).toBe(ta.peerId);
    // The first attempt's id is still taken (PeerJS keeps it until its alive timeout); the next attempt's registers.
    const firstAgain = (await (
      await ticketFor(a.token, { roomId: sa.roomId, partnerId: b.user.userId, attempt: 0 })
    ).json()) as PeerTicketAnswer;
    expect(firstAgain.peerId).toBe(first.peerId);
    await expect(registerPeer({ key: 'parley', id: first.peerId, token: firstAgain.ticket })).resolves.toBe('ID-TAKEN');
    await expect(registerPeer({ key: 'parley', id: ta.peerId, token: ta.ticket })).resolves.toBe('open');
  });

  it('refuses bad asks with an error event, and past the last attempt', async () => {
    const { a, b, sa } = await matchedPair();
    for (const bad of [{ roomId: sa.roomId }, { roomId: sa.roomId, attempt: -1 }, { roomId: sa.roomId, attempt: 'x' }, null]) {
      const error = once<SocketError>(a.socket, chatEvents.error);
      a.socket.emit(rtcEvents.redial, bad);
      expect(await error).toMatchObject({ event: rtcEvents.redial, code: 'validation_failed' });
    }
    for (let attempt = 0; attempt < MAX_CALL_ATTEMPTS - 1; attempt++) {
      const heard = once<CallRedial>(b.socket, rtcEvents.redial);
      a.socket.emit(rtcEvents.redial, { roomId: sa.roomId, attempt });
      await heard;
    }
    const exhausted = once<SocketError>(a.socket, chatEvents.error);
    a.socket.emit(rtcEvents.redial, { roomId: sa.roomId, attempt: MAX_CALL_ATTEMPTS - 1 });
    expect(await exhausted).toMatchObject({ event: rtcEvents.redial, code: 'call_attempts_exhausted' });
    const outsider = await signedIn();
    const notIn = once<SocketError>(outsider.socket, chatEvents.error);
    outsider.socket.emit(rtcEvents.redial, { roomId: sa.roomId, attempt: 0 });
    expect(await notIn).toMatchObject({ event: rtcEvents.redial, code: 'not_in_room' });
    const badTicket = await ticketFor(a.token, { roomId: sa.roomId, partnerId: b.user.userId, attempt: MAX_CALL_ATTEMPTS });
    expect(badTicket.status).toBe(400);
    expect(await badTicket.json()).toMatchObject({ code: 'validation_failed', message: expect.stringContaining('attempt') });
  });
});
