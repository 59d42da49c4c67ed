import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { mountPeerServer, type PeerMount } from './mount.ts';
import { peerAuthority } from './peerIds.ts';
import { PEER_KEY, PEER_MAX_SOCKETS_PER_USER } from './options.ts';

const secret = new TextEncoder().encode('s'.repeat(48));
const authority = peerAuthority(secret);
const APP_ORIGIN = 'https://parley.example';
let server: http.Server;
let mount: PeerMount;
let base: string;

beforeAll(async () => {
  server = http.createServer((req, res) => (mount.owns(req) ? mount.handle(req, res) : res.writeHead(418).end()));
  mount = mountPeerServer(server, { secret, exclusive: true, allowedOrigin: APP_ORIGIN });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await mount.close();
  await new Promise<void>((r) => server.close(() => r()));
});

type Opened = { ws: WebSocket; messages: Array<{ type: string; src?: string; payload?: unknown }> };

/**
 * Connects like the PeerJS client does; resolves with the socket once OPEN arrives, or the refusal
 * status. A socket upgraded without any message within a second resolves too (with no messages).
 */
function connect(query: Record<string, string> | string): Promise<Opened | { status: number }> {
  const ws = new WebSocket(`ws://${base}/peerjs/peerjs?${typeof query === 'string' ? query : new URLSearchParams(query)}`);
  const messages: Opened['messages'] = [];
  return new Promise((resolve, reject) => {
    ws.on('unexpected-response', (_req, res) => resolve({ status: res.statusCode ?? 0 }));
    ws.on('open', () => setTimeout(() => resolve({ ws, messages }), 1000));
    ws.on('message', (data) => {
      const m = JSON.parse(data.toString()) as Opened['messages'][number];
      messages.push(m);
      if (m.type === 'OPEN') resolve({ ws, messages });
    });
    ws.on('error', (e) => reject(e));
  });
}

async function peer(roomId: string, userId: string) {
  const id = authority.roomPeerId(roomId, userId);
  const token = await authority.mintTicket({ userId, peerId: id });
  const r = await connect({ key: PEER_KEY, id, token });
  if (!('ws' in r)) throw new Error(`refused ${r.status}`);
  return { id, ...r };
}

const until = async (check: () => boolean) => {
  for (let i = 0; i < 100 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
};

/** What a connection attempt came to (the messages' types, or the status), its socket closed. */
function outcome(r: Opened | { status: number }) {
  if (!('ws' in r)) return r;
  r.ws.close();
  return { messages: r.messages.map((m) => m.type) };
}

/** Closes a peer's socket and waits until the server has seen it go. */
async function hangUp(ws: WebSocket) {
  const before = mount.peerCount();
  ws.close();
  await until(() => mount.peerCount() < before);
}

describe('peer registration', () => {
  it('is refused without a token', async () => {
    await expect(connect({ key: PEER_KEY, id: authority.roomPeerId('r', 'alice') })).resolves.toEqual({ status: 401 });
  });

  it("is refused when the ticket names another user's id", async () => {
    const mine = authority.roomPeerId('r', 'mallory');
    const victim = authority.roomPeerId('r', 'alice');
    const token = await authority.mintTicket({ userId: 'mallory', peerId: mine });
    await expect(connect({ key: PEER_KEY, id: victim, token })).resolves.toEqual({ status: 401 });
  });

  it('is refused with an access token in place of a ticket, or a wrong key', async () => {
    const id = authority.roomPeerId('r', 'alice');
    await expect(connect({ key: PEER_KEY, id, token: 'random-peerjs-token' })).resolves.toEqual({ status: 401 });
    const token = await authority.mintTicket({ userId: 'alice', peerId: id });
    await expect(connect({ key: 'peerjs', id, token })).resolves.toEqual({ status: 400 });
  });

  it('opens with a ticket for the id', async () => {
    const a = await peer('room-open', 'alice');
    expect(a.messages[0]?.type).toBe('OPEN');
    a.ws.close();
  });
});

describe('one ticket, one registration', () => {
  it("never opens under another id added to the query after the ticket's own", async () => {
    const mine = authority.roomPeerId('room-dup', 'mallory');
    const victim = authority.roomPeerId('room-dup', 'alice');
    const token = await authority.mintTicket({ userId: 'mallory', peerId: mine });
    const smuggled = await connect(`key=${PEER_KEY}&id=${mine}&token=${token}&id=${victim}`);
    expect(outcome(smuggled)).toEqual({ status: 400 });
    // The owner still gets their id, and the partner's offer reaches them.
    const alice = await peer('room-dup', 'alice');
    const bob = await peer('room-dup', 'bob');
    bob.ws.send(JSON.stringify({ type: 'OFFER', dst: victim, payload: { sdp: 'hi' } }));
    await until(() => alice.messages.some((m) => m.type === 'OFFER'));
    expect(alice.messages.find((m) => m.type === 'OFFER')).toMatchObject({ src: bob.id });
    for (const p of [alice, bob]) p.ws.close();
  });

  it('refuses a repeated token or key', async () => {
    const id = authority.roomPeerId('room-dup2', 'mallory');
    const token = await authority.mintTicket({ userId: 'mallory', peerId: id });
    const other = await authority.mintTicket({ userId: 'mallory', peerId: id });
    expect(outcome(await connect(`key=${PEER_KEY}&id=${id}&token=${token}&token=${other}`))).toEqual({ status: 400 });
    expect(outcome(await connect(`key=${PEER_KEY}&id=${id}&token=${token}&key=peerjs`))).toEqual({ status: 400 });
    // Neither refusal spent the ticket.
    expect(outcome(await connect({ key: PEER_KEY, id, token }))).toEqual({ messages: ['OPEN'] });
  });

  it('refuses a ticket used again, while its socket is open or after it closed', async () => {
    const id = authority.roomPeerId('room-reuse', 'mallory');
    const token = await authority.mintTicket({ userId: 'mallory', peerId: id });
    const first = await connect({ key: PEER_KEY, id, token });
    if (!('ws' in first)) throw new Error(`refused ${first.status}`);
    // While open, the same ticket would take the registration over without a word.
    expect(outcome(await connect({ key: PEER_KEY, id, token }))).toEqual({ status: 401 });
    await hangUp(first.ws);
    expect(outcome(await connect({ key: PEER_KEY, id, token }))).toEqual({ status: 401 });
    // A fresh ticket for the same id registers it again.
    const fresh = await authority.mintTicket({ userId: 'mallory', peerId: id });
    expect(outcome(await connect({ key: PEER_KEY, id, token: fresh }))).toEqual({ messages: ['OPEN'] });
  });

  it('caps the open peer sockets of one user, and frees a place when one closes', async () => {
    const open = [];
    for (let i = 0; i < PEER_MAX_SOCKETS_PER_USER; i++) open.push(await peer(`room-cap-${i}`, 'carol'));
    const id = authority.roomPeerId('room-cap-x', 'carol');
    const token = await authority.mintTicket({ userId: 'carol', peerId: id });
    expect(outcome(await connect({ key: PEER_KEY, id, token }))).toEqual({ status: 429 });
    // Other users are not affected.
    const dave = await peer('room-cap-x', 'dave');
    await hangUp(open.shift()!.ws);
    // The refused ticket was not spent.
    expect(outcome(await connect({ key: PEER_KEY, id, token }))).toEqual({ messages: ['OPEN'] });
    for (const p of [...open, dave]) p.ws.close();
  });
});

describe('signalling', () => {
  it('reaches the partner in the same room and never a peer of another room', async () => {
    const alice = await peer('room-A', 'alice');
    const bob = await peer('room-A', 'bob');
    const mallory = await peer('room-M', 'mallory');
    mallory.ws.send(JSON.stringify({ type: 'OFFER', dst: alice.id, payload: { sdp: 'evil' } }));
    alice.ws.send(JSON.stringify({ type: 'OFFER', dst: bob.id, payload: { sdp: 'hello' } }));
    await until(() => bob.messages.some((m) => m.type === 'OFFER'));
    expect(bob.messages.find((m) => m.type === 'OFFER')).toMatchObject({ src: alice.id, payload: { sdp: 'hello' } });
    // Alice's own offer reached Bob after Mallory's was sent, so Mallory's would have arrived by now.
    expect(alice.messages.some((m) => m.type === 'OFFER')).toBe(false);
    for (const p of [alice, bob, mallory]) p.ws.close();
  });
});

describe('HTTP', () => {
  it('serves the info route and refuses id generation and discovery', async () => {
    expect((await fetch(`http://${base}/peerjs`)).status).toBe(200);
    const id = await fetch(`http://${base}/peerjs/${PEER_KEY}/id`);
    expect(id.status).toBe(404);
    expect(await id.json()).toEqual({ message: 'Not found', code: 'not_found' });
    expect((await fetch(`http://${base}/peerjs/${PEER_KEY}/peers`)).status).toBe(404);
  });

  it('answers with strict headers for JSON and does not name its framework', async () => {
    for (const path of ['/peerjs', '/peerjs/x']) {
      const h = (await fetch(`http://${base}${path}`)).headers;
      expect(h.get('x-powered-by'), path).toBeNull();
      expect(h.get('content-security-policy'), path).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(h.get('x-content-type-options'), path).toBe('nosniff');
      expect(h.get('x-frame-options'), path).toBe('DENY');
    }
  });

  it("answers CORS for the app's origin only", async () => {
    const evil = await fetch(`http://${base}/peerjs`, { headers: { origin: 'https://evil.example' } });
    expect(evil.headers.get('access-control-allow-origin')).toBeNull();
    const app = await fetch(`http://${base}/peerjs`, { headers: { origin: APP_ORIGIN } });
    expect(app.headers.get('access-control-allow-origin')).toBe(APP_ORIGIN);
  });
});
