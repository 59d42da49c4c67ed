import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { peerAuthority, PEER_KEY } from '@parley/peer-server';
import { startTestServer, type TestServer } from './testing/server.ts';

/** 'open' once registered, else the refusal's HTTP status. */
function registerPeer(server: TestServer, query: Record<string, string>): Promise<{ result: string | number; ws: WebSocket }> {
  const ws = new WebSocket(`${server.url.replace('http', 'ws')}/peerjs/peerjs?${new URLSearchParams(query)}`);
  return new Promise((resolve, reject) => {
    ws.on('unexpected-response', (_q, res) => resolve({ result: res.statusCode ?? 0, ws }));
    ws.on('message', (d) => resolve({ result: (JSON.parse(d.toString()) as { type: string }).type, ws }));
    ws.on('error', reject);
  });
}

describe('the mounted peer server', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ PUBLIC_URL: 'https://parley.example' });
  });
  afterAll(() => server.close());

  it("answers CORS for the app's own origin only", async () => {
    const evil = await server.api('/peerjs', { headers: { origin: 'https://evil.example' } });
    expect(evil.status).toBe(200);
    expect(evil.headers.get('access-control-allow-origin')).toBeNull();
    const app = await server.api('/peerjs', { headers: { origin: 'https://parley.example' } });
    expect(app.headers.get('access-control-allow-origin')).toBe('https://parley.example');
  });
});

describe.skipIf(!process.env.REDIS_URL)('the mounted peer server with Redis', () => {
  const shared = { JWT_SECRET: randomBytes(32).toString('hex'), REDIS_KEY_PREFIX: `test${randomBytes(6).toString('hex')}:` };
  let one: TestServer;
  let two: TestServer;
  beforeAll(async () => {
    [one, two] = await Promise.all([startTestServer(shared), startTestServer(shared)]);
  });
  afterAll(() => Promise.all([one.close(), two.close()]));

  it('refuses in one process a ticket that registered in another', async () => {
    const authority = peerAuthority(one.deps.secrets.jwtSecret);
    const id = authority.roomPeerId('room', 'mallory');
    const token = await authority.mintTicket({ userId: 'mallory', peerId: id });
    const first = await registerPeer(one, { key: PEER_KEY, id, token });
    expect(first.result).toBe('OPEN');
    const again = await registerPeer(two, { key: PEER_KEY, id, token });
    again.ws.close();
    first.ws.close();
    expect(again.result).toBe(401);
  });
});
