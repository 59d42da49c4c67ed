import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { storedRoomRig } from '../testing/storedRoomRig.ts';
import { ABLY_TOKEN_TTL_MS, type AblyTokenRequest } from './ablyToken.ts';

const KEY = 'appId.keyId:c2VjcmV0LXBhcnQtb2YtdGhlLWtleQ';
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ ABLY_API_KEY: KEY });
});
afterAll(() => server?.close());
const rig = storedRoomRig(
  () => server,
  () => Promise.reject(new Error('no sockets here')),
);

describe('GET /api/auth/ablyclienttoken', () => {
  it('signs a token request whose MAC verifies with the key and whose capability is exactly the member’s rooms', async () => {
    const [ana, bo] = await Promise.all([rig.account(), rig.account()]);
    const mine = await rig.createRoom(ana);
    const joined = await rig.createRoom(bo);
    const notMine = await rig.createRoom(bo);
    await rig.join(ana, joined.roomId);
    const res = await rig.call(ana, '/api/auth/ablyclienttoken');
    expect(res.status).toBe(200);
    const tr = (await res.json()) as AblyTokenRequest;
    expect(tr).toMatchObject({ keyName: 'appId.keyId', clientId: ana.userId, ttl: ABLY_TOKEN_TTL_MS });
    const text = `${tr.keyName}\n${tr.ttl}\n${tr.capability}\n${tr.clientId}\n${tr.timestamp}\n${tr.nonce}\n`;
    expect(tr.mac).toBe(createHmac('sha256', 'c2VjcmV0LXBhcnQtb2YtdGhlLWtleQ').update(text).digest('base64'));
    const capability = JSON.parse(tr.capability) as Record<string, string[]>;
    expect(capability).toEqual({ [`group:${mine.roomId}`]: ['subscribe'], [`group:${joined.roomId}`]: ['subscribe'] });
    expect(capability[`group:${notMine.roomId}`]).toBeUndefined();
    expect(JSON.stringify(tr)).not.toContain('c2VjcmV0');
  });

  it('answers 401 without a session', async () => {
    expect((await server.api('/api/auth/ablyclienttoken')).status).toBe(401);
  });

  it('GET /api/auth/ably says it is on, without a session and without the key', async () => {
    const res = await server.api('/api/auth/ably');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ enabled: true });
    expect(res.headers.get('cache-control')).toContain('max-age');
  });
});

describe('without ABLY_API_KEY', () => {
  let plain: TestServer;
  beforeAll(async () => {
    plain = await startTestServer();
  });
  afterAll(() => plain?.close());
  it('answers 503 with a reason: socket.io carries the rooms', async () => {
    const r = storedRoomRig(
      () => plain,
      () => Promise.reject(new Error('no sockets here')),
    );
    const ana = await r.account();
    const res = await r.call(ana, '/api/auth/ablyclienttoken');
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ code: 'ably_not_configured' });
    expect(await (await plain.api('/api/auth/ably')).json()).toEqual({ enabled: false });
  });
});
