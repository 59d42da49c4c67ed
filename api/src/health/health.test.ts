import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/server.ts';

describe('GET /api/health', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('answers ok with the database kind and version', async () => {
    const res = await server.api('/api/health');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok', db: process.env.DATABASE_URL ? 'postgres' : 'pglite', version: expect.any(String) });
  });

  it('answers unknown API paths with JSON 404', async () => {
    const res = await server.api('/api/does-not-exist');
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ message: 'Not found', code: 'not_found' });
  });

  it('answers malformed JSON with a 400 JSON error and no stack', async () => {
    const res = await server.api('/api/health', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{bad' });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { message: string; code: string };
    expect(body.code).toBe('bad_request');
    expect(JSON.stringify(body)).not.toMatch(/at .*\.ts/);
  });

  it('refuses bodies over 100 kB with 413', async () => {
    const res = await server.api('/api/health', { method: 'POST', json: { blob: 'x'.repeat(110_000) } });
    expect(res.status).toBe(413);
    expect(((await res.json()) as { code: string }).code).toBe('payload_too_large');
  });
});

describe('a server that drains (SIGTERM)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('answers its health 503 "draining" at once, and refuses a new realtime connection with 503 so the proxy tries another', async () => {
    expect((await server.api('/api/health')).status).toBe(200);
    const drained = server.drain();
    const res = await server.api('/api/health');
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ status: 'draining' });
    // A new connection's first request (socket.io's handshake, no session id yet).
    const handshake = await fetch(`${server.url}/socket.io/?EIO=4&transport=polling`);
    expect(handshake.status).toBe(503);
    // Alone, there is nothing to hand over or move: it is done at once.
    expect(await drained).toEqual({ chats: { handed: 0, kept: 0 }, streamsEnded: 0, sockets: 0 });
  });
});
