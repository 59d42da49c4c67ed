import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { peerAuthority, PEER_KEY } from '@parley/peer-server';
import { loadConfig } from './platform/config.ts';
import { helmetOptions } from './server.ts';
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

/** One directive of a Content-Security-Policy header, its sources in order. */
function directive(csp: string | null, name: string): string[] | undefined {
  const found = (csp ?? '')
    .split(';')
    .map((d) => d.trim().split(/\s+/))
    .find(([n]) => n === name);
  return found?.slice(1);
}

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ PUBLIC_URL: 'https://parley.example' });
});
afterAll(() => server.close());

describe('Content-Security-Policy', () => {
  it('lets the page connect to its own origin only, over HTTP and WebSocket', async () => {
    const res = await server.api('/api/health');
    expect(directive(res.headers.get('content-security-policy'), 'connect-src')).toEqual([
      "'self'",
      'https://parley.example',
      'wss://parley.example',
    ]);
  });

  it('adds the PeerJS server when PEERJS_URL puts it elsewhere, Ably with ABLY_API_KEY, and keeps the port of a plain-HTTP origin', () => {
    const connect = (env: Record<string, string>) =>
      helmetOptions(loadConfig({ PORT: '3000', ...env })).contentSecurityPolicy.directives['connect-src'];
    expect(connect({ PUBLIC_URL: 'https://parley.example', PEERJS_URL: 'https://peer.parley.example/peerjs' })).toEqual([
      "'self'",
      'https://parley.example',
      'wss://parley.example',
      'https://peer.parley.example',
      'wss://peer.parley.example',
    ]);
    expect(connect({ PUBLIC_URL: 'https://parley.example', PEERJS_URL: 'https://parley.example/peerjs' })).toEqual([
      "'self'",
      'https://parley.example',
      'wss://parley.example',
    ]);
    expect(connect({})).toEqual(["'self'", 'http://localhost:3000', 'ws://localhost:3000']);
    // With an Ably key, the Ably client reaches its own hosts.
    expect(connect({ PUBLIC_URL: 'https://parley.example', ABLY_API_KEY: 'app.key:secret' })).toEqual([
      "'self'",
      'https://parley.example',
      'wss://parley.example',
      'https://*.ably.net',
      'wss://*.ably.net',
      'https://*.ably-realtime.com',
      'wss://*.ably-realtime.com',
      'https://*.ably.io',
      'wss://*.ably.io',
    ]);
    expect(connect({ PUBLIC_URL: 'http://192.168.1.5:8080', PEERJS_URL: 'http://192.168.1.5:9000' })).toEqual([
      "'self'",
      'http://192.168.1.5:8080',
      'ws://192.168.1.5:8080',
      'http://192.168.1.5:9000',
      'ws://192.168.1.5:9000',
    ]);
  });
});

describe('Permissions-Policy', () => {
  it("allows camera, microphone and screen sharing for the app's own origin only, and turns unused features off", async () => {
    for (const path of ['/api/health', '/api/no-such-route']) {
      const header = (await server.api(path)).headers.get('permissions-policy');
      const features = new Map((header ?? '').split(',').map((f) => f.trim().split('=') as [string, string]));
      for (const f of ['camera', 'microphone', 'display-capture', 'payment']) expect(features.get(f), f).toBe('(self)');
      for (const f of ['geolocation', 'usb', 'serial', 'hid', 'midi']) expect(features.get(f), f).toBe('()');
    }
  });
});

describe('the mounted peer server', () => {
  it("answers CORS for the app's own origin only", async () => {
    const evil = await server.api('/peerjs', { headers: { origin: 'https://evil.example' } });
    expect(evil.status).toBe(200);
    expect(evil.headers.get('access-control-allow-origin')).toBeNull();
    const app = await server.api('/peerjs', { headers: { origin: 'https://parley.example' } });
    expect(app.headers.get('access-control-allow-origin')).toBe('https://parley.example');
  });

  it("answers with the API's security headers and does not name its framework", async () => {
    const headersOf = async (path: string) => {
      const h = (await server.api(path)).headers;
      return Object.fromEntries(
        [
          'content-security-policy',
          'permissions-policy',
          'x-content-type-options',
          'x-frame-options',
          'referrer-policy',
          'strict-transport-security',
          'cross-origin-opener-policy',
          'cross-origin-resource-policy',
        ].map((n) => [n, h.get(n)]),
      );
    };
    const api = await headersOf('/api/health');
    expect(api['content-security-policy']).toBeTruthy();
    for (const path of ['/peerjs', '/peerjs/', '/peerjs/no-such-route']) {
      expect(await headersOf(path), path).toEqual(api);
      expect((await server.api(path)).headers.get('x-powered-by'), path).toBeNull();
    }
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
