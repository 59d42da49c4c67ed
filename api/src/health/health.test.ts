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
